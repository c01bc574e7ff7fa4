from m06 import *  # noqa: F403
