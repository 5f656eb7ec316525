# source: https://github.com/MisaOgura/flashtorch/pull/3
# also: https://github.com/MisaOgura/flashtorch/commit/5b77eb347f4705cfb3afb38d6331dd977573678b
# kind: tensor_no_device_in_forward
# bug: the saliency backprop helper moved the model and the image to CUDA when available, but built the one-hot gradient target with `torch.FloatTensor(1, n).zero_()` on the CPU and passed it to `output.backward(gradient=...)`, which failed on the GPU (issue #2); the merged PR moves the target to the GPU together with the model and input.
# split: test3
import torch


class Backprop:
    def __init__(self, model):
        self.model = model.eval()
        self.gradients = None
        self.device = "cuda" if torch.cuda.is_available() else "cpu"
        first = next(m for m in model.modules() if isinstance(m, torch.nn.Conv2d))
        first.register_full_backward_hook(self._record)

    def _record(self, module, grad_in, grad_out):
        self.gradients = grad_in[0]

    def calculate_gradients(self, image, take_max=False):
        self.model = self.model.to(self.device)
        self.model.zero_grad()
        image = image.to(self.device).requires_grad_(True)
        output = self.model(image)
        _, top = output.topk(1, dim=1)
        target = torch.FloatTensor(1, output.shape[-1]).zero_()  # bug: tensor_no_device_in_forward
        target[0][top] = 1
        output.backward(gradient=target)
        grads = image.grad.detach().cpu()[0]
        if take_max:
            grads = grads.abs().max(dim=0, keepdim=True).values
        return grads
