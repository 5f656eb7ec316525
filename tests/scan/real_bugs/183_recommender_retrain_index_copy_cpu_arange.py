# source: https://github.com/massquantity/LibRecommender/pull/222
# also: https://github.com/massquantity/LibRecommender/commit/7517429b4a42bfe95dac17fa2bb80dd3e3c8cc80
# kind: tensor_no_device_in_forward
# bug: when a saved model was rebuilt for retraining on new users/items, the old embedding rows were copied into the freshly built (device-resident) parameters with param.index_copy_(0, torch.arange(old_n), old_rows), and the index from torch.arange had no device, so the copy failed on CUDA; the fix builds the index with device=self.device (and likewise the new Adam moment tensors).
# split: test7
import torch
import torch.nn as nn


class TwoTower(nn.Module):
    def __init__(self, n_users, n_items, dim):
        super().__init__()
        self.user_embed = nn.Embedding(n_users, dim)
        self.item_embed = nn.Embedding(n_items, dim)

    def forward(self, users, items):
        return (self.user_embed(users) * self.item_embed(items)).sum(-1)


class Recommender:
    def __init__(self, n_users, n_items, dim=32, device="cuda"):
        self.n_users, self.n_items, self.dim = n_users, n_items, dim
        self.device = torch.device(device)
        self.torch_model = None

    def build_model(self):
        self.torch_model = TwoTower(self.n_users, self.n_items, self.dim).to(self.device)

    @torch.no_grad()
    def rebuild(self, path, old_n_users, old_n_items):
        self.build_model()
        saved = torch.load(path, map_location=self.device)
        old_rows = {k: saved.pop(k) for k in list(saved) if "embed" in k}
        self.torch_model.load_state_dict(saved, strict=False)
        for name, param in self.torch_model.named_parameters():
            if name.startswith("user_embed"):
                index = torch.arange(old_n_users)  # bug: tensor_no_device_in_forward
                param.index_copy_(0, index, old_rows[name])
            elif name.startswith("item_embed"):
                param[:old_n_items].copy_(old_rows[name])


if __name__ == "__main__":
    rec = Recommender(n_users=1200, n_items=800)
    rec.rebuild("model.pt", old_n_users=1000, old_n_items=700)
