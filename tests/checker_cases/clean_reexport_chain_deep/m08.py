from m07 import vecadd

__all__ = ["vecadd"]
