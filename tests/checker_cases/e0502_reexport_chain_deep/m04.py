from m03 import vecadd

__all__ = ["vecadd"]
