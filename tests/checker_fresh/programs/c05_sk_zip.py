# fresh-expect: clean
"""sk.zip runs several constructor ops in order."""
import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32

stream = sk.Device.cpu().new_stream()
ones = tile.ones((64,), f32)
twos = tile.full((64,), 2.0, f32)
t1, t2 = sk.zip(ones, twos).sync_on(stream)
assert (t1.to_numpy(stream) + 1.0 == t2.to_numpy(stream)).all()
