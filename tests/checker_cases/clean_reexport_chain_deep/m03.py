from m02 import *  # noqa: F403
