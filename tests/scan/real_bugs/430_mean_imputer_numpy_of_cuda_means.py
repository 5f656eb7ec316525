# source: https://github.com/WenjieDu/PyPOTS/pull/820
# kind: numpy_of_device_tensor
# bug: the Mean imputer's torch branch computed per-feature nanmean on the input tensor and immediately called .numpy() on it to loop over the fill values, which raises for CUDA inputs; the fix keeps the means as a tensor and fills NaNs with a vectorised torch.where on the input's device.
# split: test20
import numpy as np
import torch


class BaseImputer:
    def __init__(self, device=None):
        self.device = device

    def fit(self, train_set, val_set=None):
        pass


class Mean(BaseImputer):
    def predict(self, test_set):
        X = test_set["X"]
        n_samples, n_steps, n_features = X.shape
        if isinstance(X, np.ndarray):
            flat = np.copy(X).reshape(-1, n_features)
            mean_values = np.nanmean(flat, axis=0)
            for i, v in enumerate(mean_values):
                flat[:, i] = np.nan_to_num(flat[:, i], nan=v)
            imputed = flat.reshape(n_samples, n_steps, n_features)
        elif isinstance(X, torch.Tensor):
            flat = torch.clone(X).reshape(-1, n_features)
            mean_values = torch.nanmean(flat, dim=0).numpy()  # bug: numpy_of_device_tensor
            for i, v in enumerate(mean_values):
                flat[:, i] = torch.nan_to_num(flat[:, i], nan=float(v))
            imputed = flat.reshape(n_samples, n_steps, n_features)
        else:
            raise ValueError(f"unsupported input type {type(X)}")
        return {"imputation": imputed}

    def impute(self, test_set):
        return self.predict(test_set)["imputation"]


def make_missing(x, rate=0.1):
    mask = torch.rand_like(x) < rate
    return x.masked_fill(mask, float("nan"))


if __name__ == "__main__":
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    data = make_missing(torch.randn(16, 24, 5, device=device))
    imputer = Mean()
    imputer.fit({"X": data})
    out = imputer.impute({"X": data})
    print(torch.isnan(out).any().item())
