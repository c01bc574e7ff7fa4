from m09 import vecadd

__all__ = ["vecadd"]
