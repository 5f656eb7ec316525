# A predict helper handed a model, in a file that runs models on the GPU, and a module that saves its own
# embedding weight: both hand device memory to NumPy.
import numpy as np
import torch
from torch import nn


def predict_to_numpy(prediction_net, inputs):
    return prediction_net(*inputs).detach().numpy()  # expect: code.numpy_of_device_tensor


class StaticEmbedder(nn.Module):
    def __init__(self, vectors):
        super().__init__()
        self.embedding = nn.Embedding.from_pretrained(torch.as_tensor(vectors))

    @property
    def device(self):
        return self.embedding.weight.device

    def forward(self, ids):
        return self.embedding(ids.to(self.device))

    def export(self, path):
        np.save(path, self.embedding.weight.numpy())  # expect: code.numpy_of_device_tensor


if __name__ == "__main__":
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = StaticEmbedder(np.random.rand(10, 4).astype(np.float32)).to(device)
    print(predict_to_numpy(model, (torch.arange(3, device=device),)))
    model.export("emb.npy")
