# source: https://github.com/microsoft/hummingbird/issues/280
# also: https://github.com/microsoft/hummingbird/commit/c42b94bc41a24bb566e38fb339956c2d63e2a449
# kind: other
# bug: the converted MLP kept its weight and bias nn.Parameters in plain Python lists, so they were never registered and .to("cuda") left them on the CPU; the fix stored them in nn.ParameterList.
# split: test2
import numpy as np
import torch


class DenseStack(torch.nn.Module):
    def __init__(self, weights, biases):
        super().__init__()
        self.mats = [torch.nn.Parameter(torch.from_numpy(w.astype("float32")), requires_grad=False) for w in weights]  # bug: other
        self.offs = [torch.nn.Parameter(torch.from_numpy(b.astype("float32")), requires_grad=False) for b in biases]  # bug: other

    def forward(self, x):
        for i, (w, b) in enumerate(zip(self.mats, self.offs)):
            x = torch.addmm(b, x, w)
            if i < len(self.mats) - 1:
                x = torch.relu(x)
        return torch.softmax(x, dim=1)


def convert(sk_coefs, sk_intercepts, device="cuda"):
    return DenseStack(sk_coefs, sk_intercepts).to(device)


if __name__ == "__main__":
    net = convert([np.ones((4, 8)), np.ones((8, 3))], [np.zeros(8), np.zeros(3)], "cpu")
    print(net(torch.ones(2, 4)).shape)
