# source: https://github.com/jeshraghian/snntorch/pull/317
# kind: attribute_not_buffer
# bug: the leaky spiking neuron kept its membrane potential as a plain tensor attribute created on the CPU in __init__, so model.to(device) did not move it and the first forward re-created the state on the CPU via zeros_like(..., device=self.mem.device); the fix registers the state as a non-persistent buffer.
# split: test22
import torch
import torch.nn as nn


class SpikeFn(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return (x > 0).float()

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return grad / (1 + 25 * x.abs()) ** 2


class NeuronBase(nn.Module):
    instances = []

    def __init__(self, beta, threshold=1.0, learn_beta=False):
        super().__init__()
        NeuronBase.instances.append(self)
        beta = torch.as_tensor(beta)
        if learn_beta:
            self.beta = nn.Parameter(beta)
        else:
            self.register_buffer("beta", beta)
        self.register_buffer("threshold", torch.as_tensor(threshold))

    def fire(self, mem):
        return SpikeFn.apply(mem - self.threshold)

    def mem_reset(self, mem):
        return SpikeFn.apply(mem - self.threshold).detach()


class LeakyNeuron(NeuronBase):
    def __init__(self, beta, threshold=1.0, init_hidden=False):
        super().__init__(beta, threshold)
        self.init_hidden = init_hidden
        self._init_mem()

    def _init_mem(self):
        self.mem = torch.zeros(1)  # bug: attribute_not_buffer

    def reset_mem(self):
        self.mem = torch.zeros_like(self.mem, device=self.mem.device)
        return self.mem

    def forward(self, input_, mem=None):
        if mem is not None:
            self.mem = mem
        if self.mem.shape != input_.shape:
            self.mem = torch.zeros_like(input_, device=self.mem.device)
        reset = self.mem_reset(self.mem)
        self.mem = self.beta.clamp(0, 1) * self.mem + input_ - reset * self.threshold
        spk = self.fire(self.mem)
        if self.init_hidden:
            return spk
        return spk, self.mem


class SpikingMLP(nn.Module):
    def __init__(self, n_in=784, n_hidden=256, n_out=10, steps=25):
        super().__init__()
        self.steps = steps
        self.fc1 = nn.Linear(n_in, n_hidden)
        self.lif1 = LeakyNeuron(beta=0.9, init_hidden=True)
        self.fc2 = nn.Linear(n_hidden, n_out)
        self.lif2 = LeakyNeuron(beta=0.9, init_hidden=True)

    def forward(self, x):
        self.lif1.reset_mem()
        self.lif2.reset_mem()
        spikes = []
        for _ in range(self.steps):
            h = self.lif1(self.fc1(x))
            spikes.append(self.lif2(self.fc2(h)))
        return torch.stack(spikes).sum(0)


if __name__ == "__main__":
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    net = SpikingMLP().to(device)
    opt = torch.optim.Adam(net.parameters(), lr=5e-4)
    data = torch.rand(64, 784, device=device)
    labels = torch.randint(0, 10, (64,), device=device)
    loss = nn.functional.cross_entropy(net(data), labels)
    opt.zero_grad()
    loss.backward()
    opt.step()
