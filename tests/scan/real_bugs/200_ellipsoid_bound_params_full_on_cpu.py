# source: https://github.com/wenxin-liu/neural_bounding/pull/2
# also: https://github.com/wenxin-liu/neural_bounding/commit/c276bc7f9935f1bd571aa84f1dc50fee11ae0b86
# kind: tensor_no_device_in_forward
# bug: the oriented-ellipsoid baseline built its learnable centre and axis lengths with torch.full(...) and no device, while the sample points came from the data importer on the package-wide CUDA device, so the first distance computation crashed with "found at least two devices, cuda:0 and cpu"; the fix passes device=device to both torch.full calls.
# split: test8
import torch
import torch.optim as optim

device = "cuda" if torch.cuda.is_available() else "cpu"


def load_points(array):
    return torch.tensor(array, dtype=torch.float32, device=device)


def init_ellipsoid(dim, centre=0.5, radius=0.3):
    # [centre_1..centre_d, axis_1..axis_d]
    params = torch.cat((torch.full((dim,), centre), torch.full((dim,), radius)))  # bug: tensor_no_device_in_forward
    params.requires_grad = True
    return params


def signed_distance(points, params, dim):
    centre, axes = params[:dim], params[dim:]
    return torch.norm((points - centre) / axes, dim=1) - 1


def fit_ellipsoid(inside_points, dim, iters=30000):
    cov = torch.cov(inside_points.T)
    _, vecs = torch.linalg.eig(cov)
    rotated = inside_points @ vecs.real
    params = init_ellipsoid(dim)
    opt = optim.Adam([params], lr=1e-3)
    for step in range(iters):
        opt.zero_grad()
        loss = torch.relu(signed_distance(rotated, params, dim)).sum()
        loss.backward()
        opt.step()
        if loss.item() == 0.0:
            break
    return params.detach(), vecs.real


if __name__ == "__main__":
    import numpy as np

    pts = load_points(np.random.rand(2048, 3))
    print(fit_ellipsoid(pts, dim=3, iters=100))
