from m04 import *  # noqa: F403
