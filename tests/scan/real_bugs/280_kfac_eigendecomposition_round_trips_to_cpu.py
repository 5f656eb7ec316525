# source: https://github.com/ikostrikov/pytorch-a2c-ppo-acktr-gail/pull/39
# also: https://github.com/ikostrikov/pytorch-a2c-ppo-acktr-gail/commit/57fdba3172a50bc84da43ee884d6ca31cadd7a96
# kind: hardcoded_cpu
# bug: the K-FAC optimizer used by ACKTR refreshed the eigendecompositions of its running Kronecker factors by copying each factor to the host with `.cpu().double()`, running `torch.symeig` there and copying the eigenvalues and eigenvectors back with `.cuda()`, for every layer at every refresh step (a workaround for a CUDA `symeig` bug that PyTorch 0.3 had fixed); the merged PR drops the host round trip and decomposes the factors where they live.
# split: test12
import torch
import torch.optim as optim


class KroneckerPreconditioner(optim.Optimizer):
    def __init__(self, model, lr=0.25, damping=1e-2, stat_decay=0.99, Ts=1, Tf=10):
        super().__init__(model.parameters(), dict(lr=lr, damping=damping))
        self.model = model
        self.stat_decay = stat_decay
        self.Ts, self.Tf = Ts, Tf
        self.steps = 0
        self.modules = [m for m in model.modules() if isinstance(m, torch.nn.Linear)]
        self.m_aa, self.m_gg = {}, {}
        self.Q_a, self.d_a, self.Q_g, self.d_g = {}, {}, {}, {}
        for m in self.modules:
            m.register_forward_pre_hook(self._save_input)
            m.register_full_backward_hook(self._save_grad)

    def _running_avg(self, store, m, cov):
        if m not in store:
            store[m] = cov.clone()
        store[m].mul_(self.stat_decay).add_(cov, alpha=1 - self.stat_decay)

    def _save_input(self, m, inputs):
        if self.steps % self.Ts == 0:
            a = inputs[0].detach()
            self._running_avg(self.m_aa, m, a.t() @ a / a.size(0))

    def _save_grad(self, m, grad_input, grad_output):
        if self.steps % self.Ts == 0:
            g = grad_output[0].detach()
            self._running_avg(self.m_gg, m, g.t() @ g * g.size(0))

    @torch.no_grad()
    def step(self):
        for m in self.modules:
            if self.steps % self.Tf == 0:
                self.d_a[m], self.Q_a[m] = torch.linalg.eigh(self.m_aa[m].cpu().double())  # bug: hardcoded_cpu
                self.d_g[m], self.Q_g[m] = torch.linalg.eigh(self.m_gg[m].cpu().double())
                self.d_a[m], self.Q_a[m] = self.d_a[m].float(), self.Q_a[m].float()
                self.d_g[m], self.Q_g[m] = self.d_g[m].float(), self.Q_g[m].float()
                if self.m_aa[m].is_cuda:
                    self.d_a[m], self.Q_a[m] = self.d_a[m].cuda(), self.Q_a[m].cuda()
                    self.d_g[m], self.Q_g[m] = self.d_g[m].cuda(), self.Q_g[m].cuda()
            grad = m.weight.grad
            v1 = self.Q_g[m].t() @ grad @ self.Q_a[m]
            v2 = v1 / (self.d_g[m].unsqueeze(1) * self.d_a[m].unsqueeze(0) + self.defaults["damping"])
            m.weight.grad.copy_(self.Q_g[m] @ v2 @ self.Q_a[m].t())
        for group in self.param_groups:
            for p in group["params"]:
                if p.grad is not None:
                    p.add_(p.grad, alpha=-group["lr"])
        self.steps += 1
