# source: https://github.com/galilai-group/stable-worldmodel/pull/162
# also: https://github.com/galilai-group/stable-worldmodel/commit/53a4776c01bd1be93e32e9e2b799debe97f24b7b
# kind: tensor_no_device_in_forward
# bug: the projected-gradient planning solver kept a torch.Generator on its configured device, but inside the optimisation loop it sampled the action noise with torch.randn(shape, generator=...) and no device, which on CUDA raised a generator/device mismatch (and would otherwise add a CPU tensor to CUDA actions); the fix samples the noise with device=batch_init.device.
# split: test6
import torch


class SimplexPGDSolver(torch.nn.Module):
    def __init__(self, cost_fn, horizon, action_dim, n_steps=30, lr=0.1,
                 action_noise=0.0, device="cpu", seed=0):
        super().__init__()
        self.cost_fn = cost_fn
        self.horizon = horizon
        self.action_dim = action_dim
        self.n_steps = n_steps
        self.lr = lr
        self.action_noise = action_noise
        self.device = device
        self.torch_gen = torch.Generator(device=device).manual_seed(seed)

    def _project(self, a):
        u, _ = torch.sort(a, dim=-1, descending=True)
        css = u.cumsum(dim=-1) - 1
        ks = torch.arange(1, a.shape[-1] + 1, device=a.device, dtype=a.dtype)
        rho = ((u - css / ks) > 0).sum(dim=-1, keepdim=True)
        theta = css.gather(-1, rho - 1) / rho
        return torch.clamp(a - theta, min=0)

    def solve(self, obs, init=None):
        n = obs.shape[0]
        if init is None:
            init = torch.full((n, self.horizon, self.action_dim), 1.0 / self.action_dim, device=self.device)
        batch_init = init.clone().requires_grad_(True)
        opt = torch.optim.SGD([batch_init], lr=self.lr)
        for _ in range(self.n_steps):
            opt.zero_grad()
            cost = self.cost_fn(obs, batch_init).sum()
            cost.backward()
            opt.step()
            if self.action_noise > 0:
                batch_init.data += torch.randn(batch_init.shape, generator=self.torch_gen) * self.action_noise  # bug: tensor_no_device_in_forward
            with torch.no_grad():
                batch_init.copy_(self._project(batch_init))
        return batch_init.detach()
