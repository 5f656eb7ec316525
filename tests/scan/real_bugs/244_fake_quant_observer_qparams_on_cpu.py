# source: https://github.com/vllm-project/compressed-tensors/pull/12
# also: https://github.com/vllm-project/compressed-tensors/commit/514e4dbef4721670abb6b5c07cb087c0f926eddf
# kind: tensor_no_device_in_forward
# bug: during calibration the wrapped forward of a quantized layer ran a min/max observer whose `calculate_qparams` built the observed range with `torch.tensor([observed.min()])` / `torch.tensor([observed.max()])`, i.e. on the CPU, and derived the scale and zero point from them; those CPU tensors were written into the layer's `scale`/`zero_point` parameters and then divided into the CUDA activations; the fix ("make sure scale/zp on correct device") moves the observer's results to the module's device before storing them and gives the other per-call tensors a device.
# split: test11
import torch
from torch import nn


class MinMaxObserver(nn.Module):
    def __init__(self, num_bits=8):
        super().__init__()
        self.num_bits = num_bits
        self.count = 0
        self.min_val = None
        self.max_val = None

    def forward(self, observed):
        lo, hi = torch.tensor([observed.min()]), torch.tensor([observed.max()])  # bug: tensor_no_device_in_forward
        if self.count > 0:
            lo = (self.min_val * self.count + lo) / (self.count + 1)
            hi = (self.max_val * self.count + hi) / (self.count + 1)
        self.min_val, self.max_val = lo, hi
        self.count += 1
        lo = torch.minimum(lo, torch.zeros_like(lo))
        hi = torch.maximum(hi, torch.zeros_like(hi))
        qmax = 2 ** self.num_bits - 1
        scale = (hi - lo) / qmax
        zero_point = torch.round(-lo / scale).to(torch.int32)
        return scale, zero_point


def fake_quantize(x, scale, zero_point, num_bits):
    qmax = 2 ** num_bits - 1
    q = torch.clamp(torch.round(x / scale + zero_point), 0, qmax)
    return (q - zero_point) * scale


class QuantizedLinear(nn.Linear):
    def __init__(self, in_features, out_features, num_bits=8):
        super().__init__(in_features, out_features)
        self.num_bits = num_bits
        self.calibrating = True
        self.observer = MinMaxObserver(num_bits)
        self.input_scale = nn.Parameter(torch.ones(1), requires_grad=False)
        self.input_zero_point = nn.Parameter(torch.zeros(1, dtype=torch.int32), requires_grad=False)

    def forward(self, x):
        if self.calibrating:
            scale, zp = self.observer(x)
            self.input_scale.data = scale
            self.input_zero_point.data = zp
        x = fake_quantize(x, self.input_scale, self.input_zero_point, self.num_bits)
        return super().forward(x)


def calibrate(model, loader, device):
    model.eval()
    with torch.no_grad():
        for x in loader:
            model(x.to(device))


if __name__ == "__main__":
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = nn.Sequential(QuantizedLinear(32, 64), nn.ReLU(), QuantizedLinear(64, 10)).to(device)
    calibrate(model, [torch.randn(16, 32) for _ in range(4)], device)
