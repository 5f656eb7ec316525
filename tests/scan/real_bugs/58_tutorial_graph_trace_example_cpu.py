# source: https://github.com/patrickloeber/pytorchTutorial/pull/13
# kind: inputs_not_moved
# bug: the TensorBoard tutorial put the MNIST network on the GPU but traced it for add_graph with a sample batch still on the CPU, which raised a device error; the merged fix moved the sample batch to the device.
# split: test2
import torch
import torch.nn as nn
import torchvision
from torch.utils.tensorboard import SummaryWriter

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
writer = SummaryWriter("runs/digits")

loader = torch.utils.data.DataLoader(
    torchvision.datasets.MNIST("./data", train=False, transform=torchvision.transforms.ToTensor(), download=True),
    batch_size=64,
)
sample_images, _ = next(iter(loader))


class TwoLayer(nn.Module):
    def __init__(self, n_in=784, n_hidden=100, n_out=10):
        super().__init__()
        self.a = nn.Linear(n_in, n_hidden)
        self.b = nn.Linear(n_hidden, n_out)

    def forward(self, x):
        return self.b(torch.relu(self.a(x)))


net = TwoLayer().to(device)
writer.add_graph(net, sample_images.reshape(-1, 28 * 28))  # bug: inputs_not_moved
writer.close()
