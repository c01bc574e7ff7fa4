from m12 import *  # noqa: F403
