from m00 import *  # noqa: F403
