# fresh-expect: E0382 at line 11
"""zip() takes its argument ops too; running one of them afterwards is a use after move."""
import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32

stream = sk.Device.cpu().new_stream()
ones = tile.ones((64,), f32)
twos = tile.full((64,), 2.0, f32)
both = ones.zip(twos)
t2 = twos.sync_on(stream)  # BUG E0382
t1, t2b = both.sync_on(stream)
print(t1.to_numpy(stream)[:2])
