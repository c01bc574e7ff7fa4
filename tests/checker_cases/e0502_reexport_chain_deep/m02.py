from m01 import vecadd

__all__ = ["vecadd"]
