# source: https://github.com/keras-team/keras-core/pull/393
# also: https://github.com/keras-team/keras-core/commit/3d660d84c024745613fcbf882f4613cfa9700f31
# kind: per_step_host_alloc
# bug: the torch backend's ops (zeros, ones, scatter, segment_sum) allocated their result on the host and then copied it with .to(get_device()) on every call; the fix passes device=get_device() to the constructors.
# split: test4
import torch

_DEVICE = "cuda" if torch.cuda.is_available() else "cpu"


def get_device():
    return _DEVICE


def as_tensor(x):
    return x if torch.is_tensor(x) else torch.as_tensor(x, device=get_device())


def zeros(shape, dtype=torch.float32):
    if isinstance(shape, int):
        shape = (shape,)
    return torch.zeros(size=shape, dtype=dtype).to(get_device())  # bug: per_step_host_alloc


def segment_sum(data, segment_ids, num_segments=None):
    data = as_tensor(data)
    segment_ids = as_tensor(segment_ids)
    repeats = torch.prod(torch.tensor(data.shape[1:])).long().to(get_device())
    ids = segment_ids.repeat_interleave(repeats).view(*data.shape).long()
    if num_segments is None:
        num_segments = int(segment_ids.max()) + 1
    ids = ids.clip(None, num_segments)
    shape = (num_segments + 1,) + tuple(data.shape[1:])
    out = torch.zeros(*shape).to(get_device()).scatter_add(0, ids, data.float())
    return out[:-1].type(data.dtype)
