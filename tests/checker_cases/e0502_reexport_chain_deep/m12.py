from m11 import vecadd

__all__ = ["vecadd"]
