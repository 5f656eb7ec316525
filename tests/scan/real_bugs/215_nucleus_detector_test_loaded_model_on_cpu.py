# source: https://github.com/TissueImageAnalytics/tiatoolbox/pull/911
# kind: loaded_weights_not_moved
# bug: the MapDe/SCCNN architecture tests loaded the pretrained weights with `torch.load(..., map_location=select_device(on_gpu=ON_GPU))` and `load_state_dict`, but never moved the model, while `infer_batch` sent the patch batch to the selected device, so the tests failed on a machine with CUDA; the fix adds `model.to(map_location)` after loading.
# split: test9
from pathlib import Path

import numpy as np
import torch

from histokit.models import MapDe
from histokit.models.architecture import fetch_pretrained_weights
from histokit.utils import env_detection as toolbox_env
from histokit.utils.misc import select_device
from histokit.wsicore.wsireader import WSIReader

ON_GPU = toolbox_env.has_gpu()


def _load_mapde(name):
    model = MapDe()
    weights_path = fetch_pretrained_weights(name)
    map_location = select_device(on_gpu=ON_GPU)
    pretrained = torch.load(weights_path, map_location=map_location)
    model.load_state_dict(pretrained)  # bug: loaded_weights_not_moved
    return model, weights_path


def test_functionality(remote_sample):
    reader = WSIReader.open(str(remote_sample("wsi1_2k_2k_svs")))
    patch = reader.read_bounds((0, 0, 252, 252), resolution=0.50, units="mpp", coord_space="resolution")

    model, weights_path = _load_mapde(name="mapde-conic")
    patch = model.preproc(patch)
    batch = torch.from_numpy(patch)[None]
    output = model.infer_batch(model, batch, device=select_device(on_gpu=ON_GPU))
    output = model.postproc(output[0][0])
    xs, ys = np.nonzero(output)

    np.testing.assert_array_equal(xs[0:2], np.array([242, 192]))
    np.testing.assert_array_equal(ys[0:2], np.array([10, 13]))
    Path(weights_path).unlink()
