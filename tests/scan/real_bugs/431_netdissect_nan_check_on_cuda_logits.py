# source: https://github.com/CSAILVision/NetDissect-Lite/pull/5
# kind: numpy_of_device_tensor
# bug: during feature extraction the dissection tool moved each batch to the GPU when enabled, then guarded against NaN outputs with np.isnan(logit.data.max()), which asks NumPy to convert a CUDA tensor and crashes in GPU mode; the fix copies the logits to the host before the NumPy check.
# split: test20
import numpy as np
import torch
import torch.nn as nn

GPU = torch.cuda.is_available()
BATCH_SIZE = 8
features_blobs = []


def hook_feature(module, inp, output):
    features_blobs.append(output.data.cpu().numpy())


def build_model():
    model = nn.Sequential(nn.Conv2d(3, 16, 3, padding=1), nn.ReLU(), nn.Conv2d(16, 32, 3, padding=1),
                          nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(32, 10))
    model[3].register_forward_hook(hook_feature)
    if GPU:
        model.cuda()
    model.eval()
    return model


class FeatureOperator:
    def __init__(self, num_images=32):
        self.images = np.random.rand(num_images, 32, 32, 3).astype(np.float32) * 255
        self.mean = np.array([109.5, 118.7, 124.7], dtype=np.float32)

    def batches(self):
        for start in range(0, len(self.images), BATCH_SIZE):
            yield (self.images[start:start + BATCH_SIZE] - self.mean).transpose(0, 3, 1, 2)

    def feature_extraction(self, model):
        maxfeatures = []
        with torch.no_grad():
            for batch in self.batches():
                del features_blobs[:]
                inp = torch.from_numpy(batch[:, ::-1].copy())
                inp.div_(255.0 * 0.224)
                if GPU:
                    inp = inp.cuda()
                logit = model.forward(inp)
                while np.isnan(logit.data.max()):  # bug: numpy_of_device_tensor
                    del features_blobs[:]
                    logit = model.forward(inp)
                maxfeatures.append(np.max(np.max(features_blobs[0], 3), 2))
        return np.concatenate(maxfeatures)


if __name__ == "__main__":
    fo = FeatureOperator()
    print(fo.feature_extraction(build_model()).shape)
