# source: https://github.com/kkirchheim/pytorch-ood/pull/27
# also: https://github.com/kkirchheim/pytorch-ood/commit/d42335fce003cb8a2c33b6b153a42038a7d97c90
# kind: other
# bug: the nearest-neighbour out-of-distribution detector ran the (CUDA) feature extractor and handed the features to scikit-learn with `z.detach().numpy()`, which fails for CUDA tensors, so the detector only worked with CPU models; the fix inserts `.cpu()` before `.numpy()`.
# split: test12
import torch
from torch import Tensor


class NearestNeighbourDetector:
    def __init__(self, model, **knn_kwargs):
        from sklearn.neighbors import NearestNeighbors

        self.model = model
        self.knn = NearestNeighbors(n_neighbors=1, n_jobs=-1, **knn_kwargs)
        self._is_fitted = False

    @torch.no_grad()
    def fit(self, loader, device="cpu"):
        feats = []
        for x, _ in loader:
            feats.append(self.model(x.to(device)).cpu())
        return self.fit_features(torch.cat(feats))

    def fit_features(self, z: Tensor):
        self.knn.fit(z.detach().cpu().numpy())
        self._is_fitted = True
        return self

    def predict(self, x: Tensor) -> Tensor:
        z = self.model(x)
        return self.predict_features(z)

    def predict_features(self, z: Tensor) -> Tensor:
        if not self._is_fitted:
            raise RuntimeError("fit the detector first")
        dist, _ = self.knn.kneighbors(z.detach().numpy(), n_neighbors=1, return_distance=True)  # bug: other
        return torch.tensor(dist).squeeze(1)


def score_test_set(model, train_loader, test_loader, device="cuda"):
    model = model.to(device).eval()
    detector = NearestNeighbourDetector(model).fit(train_loader, device=device)
    scores = []
    with torch.no_grad():
        for x, _ in test_loader:
            scores.append(detector.predict(x.to(device)))
    return torch.cat(scores)
