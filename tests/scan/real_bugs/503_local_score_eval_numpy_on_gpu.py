# source: https://github.com/madminer-tool/madminer/pull/210
# kind: numpy_of_device_tensor
# bug: the evaluation helpers for the trained score and likelihood-ratio networks moved the model and the inputs to CUDA whenever a GPU was available but then returned the outputs with .detach().numpy(), which fails for CUDA tensors ("can't convert CUDA tensor to numpy"); the fix copies the outputs (and input gradients) back to the CPU before converting.
# split: test24
import numpy as np
import torch
import torch.nn as nn


class LocalScoreNet(nn.Module):
    def __init__(self, n_observables=4, n_parameters=2, hidden=32):
        super().__init__()
        self.body = nn.Sequential(
            nn.Linear(n_observables, hidden), nn.Tanh(),
            nn.Linear(hidden, hidden), nn.Tanh(),
            nn.Linear(hidden, n_parameters),
        )

    def forward(self, x, return_grad_x=False):
        if return_grad_x and not x.requires_grad:
            x.requires_grad_(True)
        t_hat = self.body(x)
        if return_grad_x:
            grad = torch.autograd.grad(t_hat.sum(), x, create_graph=True)[0]
            return t_hat, grad
        return t_hat


def evaluate_local_score(model, xs, run_on_gpu=True, double_precision=False, return_grad_x=False):
    run_on_gpu = run_on_gpu and torch.cuda.is_available()
    device = torch.device("cuda" if run_on_gpu else "cpu")
    dtype = torch.double if double_precision else torch.float

    xs = torch.stack([torch.tensor(row) for row in xs])
    model = model.to(device, dtype)
    xs = xs.to(device, dtype)

    if return_grad_x:
        model.eval()
        t_hat, x_gradients = model(xs, return_grad_x=True)
    else:
        with torch.no_grad():
            model.eval()
            t_hat = model(xs)
        x_gradients = None

    t_hat = t_hat.detach().numpy()  # bug: numpy_of_device_tensor
    if return_grad_x:
        return t_hat, x_gradients.detach().cpu().numpy()
    return t_hat


if __name__ == "__main__":
    net = LocalScoreNet()
    samples = np.random.randn(100, 4).astype(np.float32)
    print(evaluate_local_score(net, samples).shape)
