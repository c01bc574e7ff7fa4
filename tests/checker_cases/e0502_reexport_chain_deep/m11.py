from m10 import *  # noqa: F403
