# A pretrained encoder inside an nn.Module is a submodule: moving the parent moves it.
import torch
from torch import nn
from transformers import AutoModel


class Classifier(nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = AutoModel.from_pretrained("bert-base-uncased")
        self.head = nn.Linear(768, 2)

    def forward(self, input_ids):
        hidden = self.encoder(input_ids).last_hidden_state
        return self.head(hidden[:, 0])


model = Classifier().to("cuda")
