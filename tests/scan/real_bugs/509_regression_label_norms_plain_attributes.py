# source: https://github.com/seyonechithrananda/bert-loves-chemistry/pull/15
# kind: attribute_not_buffer
# bug: the RoBERTa regression head kept the label normalisation mean and std as plain tensor attributes (moved with .cuda() when the config said GPU, which always means cuda:0), so they did not follow the model when it was placed or replicated on other GPUs and normalising on another device failed; the fix registers norm_mean and norm_std as buffers so they move with the module.
# split: test24
import torch
import torch.nn as nn
from torch.nn import MSELoss


class RegressionConfig:
    def __init__(self, hidden_size=64, num_labels=2, norm_mean=(0.0, 1.0), norm_std=(1.0, 0.0), is_gpu=False):
        self.hidden_size = hidden_size
        self.num_labels = num_labels
        self.norm_mean = list(norm_mean)
        self.norm_std = list(norm_std)
        self.is_gpu = is_gpu


class RegressionHead(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.dense = nn.Linear(config.hidden_size, config.hidden_size)
        self.out_proj = nn.Linear(config.hidden_size, config.num_labels)

    def forward(self, features):
        x = features[:, 0, :]
        return self.out_proj(torch.tanh(self.dense(x)))


class EncoderForRegression(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.num_labels = config.num_labels
        self.norm_mean = torch.tensor(config.norm_mean)  # bug: attribute_not_buffer
        std = [s if s != 0 else 1e-8 for s in config.norm_std]
        self.norm_std = torch.tensor(std)
        if config.is_gpu:
            self.norm_mean = self.norm_mean.cuda()
            self.norm_std = self.norm_std.cuda()
        self.embed = nn.Embedding(100, config.hidden_size)
        self.encoder = nn.TransformerEncoder(
            nn.TransformerEncoderLayer(config.hidden_size, 4, batch_first=True), num_layers=2)
        self.regression = RegressionHead(config)

    def normalize(self, tensor):
        return (tensor - self.norm_mean) / self.norm_std

    def unnormalize(self, tensor):
        return tensor * self.norm_std + self.norm_mean

    def forward(self, input_ids, labels=None):
        logits = self.regression(self.encoder(self.embed(input_ids)))
        if labels is None:
            return self.unnormalize(logits)
        loss = MSELoss()(logits.view(-1), self.normalize(labels).view(-1))
        return loss, logits


if __name__ == "__main__":
    dev = torch.device("cuda:1" if torch.cuda.device_count() > 1 else "cpu")
    model = EncoderForRegression(RegressionConfig(is_gpu=torch.cuda.is_available())).to(dev)
    ids = torch.randint(0, 100, (4, 16), device=dev)
    print(model(ids, labels=torch.randn(4, 2, device=dev))[0])
