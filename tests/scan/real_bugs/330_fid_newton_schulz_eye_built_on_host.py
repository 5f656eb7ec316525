# source: https://github.com/photosynthesis-team/piq/pull/186
# also: https://github.com/photosynthesis-team/piq/commit/52930966cf0cafae48434beb7ed047075bde42ae
# kind: per_step_host_alloc
# bug: the FID metric's Newton-Schulz matrix square root built its identity matrices with `torch.eye(dim, dim).to(matrix)` (and a scalar comparison tensor with `torch.tensor([0.]).to(error)` inside the iteration loop), so every call allocated on the host and copied to the GPU, which also caused heavy CPU load on many-core machines; the merged fix creates them directly with `device=matrix.device`.
# split: test15
import torch


def approximation_error(matrix, s_matrix):
    norm = torch.norm(matrix)
    return torch.norm(matrix - torch.mm(s_matrix, s_matrix)) / norm


def sqrtm_newton_schulz(matrix, num_iters=100):
    dim = matrix.size(0)
    norm_of_matrix = matrix.norm(p="fro")
    Y = matrix.div(norm_of_matrix)
    I = torch.eye(dim, dim, requires_grad=False).to(matrix)  # bug: per_step_host_alloc
    Z = torch.eye(dim, dim, requires_grad=False).to(matrix)
    s_matrix = torch.empty_like(matrix)
    error = torch.empty(1).to(matrix)
    for _ in range(num_iters):
        T = 0.5 * (3.0 * I - Z.mm(Y))
        Y = Y.mm(T)
        Z = T.mm(Z)
        s_matrix = Y * torch.sqrt(norm_of_matrix)
        error = approximation_error(matrix, s_matrix)
        if torch.isclose(error, torch.tensor([0.0]).to(error), atol=1e-5):
            break
    return s_matrix, error


def frechet_distance(mu1, sigma1, mu2, sigma2, eps=1e-6):
    diff = mu1 - mu2
    covmean, _ = sqrtm_newton_schulz(sigma1.mm(sigma2))
    if not torch.isfinite(covmean).all():
        offset = torch.eye(sigma1.size(0)).to(mu1) * eps
        covmean, _ = sqrtm_newton_schulz((sigma1 + offset).mm(sigma2 + offset))
    return diff.dot(diff) + torch.trace(sigma1) + torch.trace(sigma2) - 2 * torch.trace(covmean)


def fid(feats_a, feats_b):
    def stats(f):
        mu = f.mean(0)
        fc = f - mu
        return mu, fc.t().mm(fc) / (f.size(0) - 1)

    return frechet_distance(*stats(feats_a), *stats(feats_b))


if __name__ == "__main__":
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    a = torch.randn(5000, 2048, device=device, dtype=torch.float64)
    b = torch.randn(5000, 2048, device=device, dtype=torch.float64)
    print(fid(a, b))
