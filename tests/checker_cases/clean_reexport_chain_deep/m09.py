from m08 import *  # noqa: F403
