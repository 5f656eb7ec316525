# source: https://github.com/uchida-takumi/CustomizedLinear/pull/1
# also: https://github.com/uchida-takumi/CustomizedLinear/commit/c46c6b021500111e544026c93085f19e472a1ea9
# kind: attribute_not_buffer
# bug: The sparsely connected linear layer kept its connectivity mask as a plain tensor attribute, so moving the layer to the GPU left the mask behind and users had to move it by hand; the merged fix registers the mask as a non-trainable nn.Parameter so it follows the module.
# split: dev
import torch
import torch.nn as nn


class SparseLinear(nn.Module):
    def __init__(self, connectivity):
        super().__init__()
        n_in, n_out = connectivity.shape
        self.mask = torch.as_tensor(connectivity, dtype=torch.float32).t()  # bug: attribute_not_buffer
        self.weight = nn.Parameter(torch.randn(n_out, n_in) * 0.01)
        self.bias = nn.Parameter(torch.zeros(n_out))

    def forward(self, x):
        return nn.functional.linear(x, self.weight * self.mask, self.bias)


if __name__ == "__main__":
    conn = (torch.rand(6, 3) > 0.5).float()
    layer = SparseLinear(conn).to("cuda")
    print(layer(torch.randn(4, 6, device="cuda")).shape)
