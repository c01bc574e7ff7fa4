from m13 import vecadd

__all__ = ["vecadd"]
