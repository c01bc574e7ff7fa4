from m05 import vecadd

__all__ = ["vecadd"]
