from m14 import *  # noqa: F403
