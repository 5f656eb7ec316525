# source: https://github.com/cornellius-gp/gpytorch/pull/467
# kind: per_step_host_alloc
# bug: the exact-GP fantasy update allocated its block buffers for the new covariance root with `torch.zeros(...).type_as(L)`, which builds the matrix in host memory and then copies it to the GPU on every fantasy/prediction update; the fix allocates them directly with device=L.device, dtype=L.dtype.
# split: test21
import torch


class FantasyPredictionCache:
    def __init__(self, train_x, train_y, noise=1e-2, lengthscale=0.5):
        self.lengthscale = lengthscale
        self.noise = noise
        self.train_x = train_x
        self.train_y = train_y
        K = self.kernel(train_x, train_x) + noise * torch.eye(train_x.size(0), device=train_x.device, dtype=train_x.dtype)
        self.root = torch.linalg.cholesky(K)
        self.inv_root = torch.linalg.inv(self.root).transpose(-2, -1)

    def kernel(self, a, b):
        return torch.exp(-0.5 * torch.cdist(a, b).pow(2) / self.lengthscale ** 2)

    def add_fantasies(self, fant_x, fant_y):
        fant_train_covar = self.kernel(fant_x, self.train_x)
        fant_fant_covar = self.kernel(fant_x, fant_x) + self.noise * torch.eye(
            fant_x.size(0), device=fant_x.device, dtype=fant_x.dtype)

        L, L_inverse = self.root, self.inv_root
        m, n = L.shape[-2:]
        lower_left = fant_train_covar.matmul(L_inverse)
        schur_root = torch.linalg.cholesky(fant_fant_covar - lower_left.matmul(lower_left.transpose(-2, -1)))
        upper_right = L.new_zeros(m, schur_root.size(-1))

        num_fant = schur_root.size(-2)
        new_root = torch.zeros(m + num_fant, n + num_fant).type_as(L)  # bug: per_step_host_alloc
        new_root[:m, :n] = L
        new_root[:m, n:] = upper_right
        new_root[m:, :n] = lower_left
        new_root[m:, n:] = schur_root

        self.root = new_root
        self.inv_root = torch.linalg.inv(new_root).transpose(-2, -1)
        self.train_x = torch.cat([self.train_x, fant_x])
        self.train_y = torch.cat([self.train_y, fant_y])

    def predict_mean(self, test_x):
        alpha = torch.cholesky_solve(self.train_y.unsqueeze(-1), self.root).squeeze(-1)
        return self.kernel(test_x, self.train_x).matmul(alpha)


if __name__ == "__main__":
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    x = torch.rand(200, 2, device=device, dtype=torch.float64)
    y = torch.sin(6 * x).sum(-1)
    gp = FantasyPredictionCache(x, y)
    for step in range(20):
        fx = torch.rand(4, 2, device=device, dtype=torch.float64)
        gp.add_fantasies(fx, gp.predict_mean(fx))
    print(gp.predict_mean(torch.rand(5, 2, device=device, dtype=torch.float64)))
