# A literal accelerator="cpu" is the author's stated choice: said, as advice (info), in case a GPU
# run was meant.
import lightning as L
from torch import nn


class Policy(L.LightningModule):
    def __init__(self):
        super().__init__()
        self.net = nn.Linear(4, 2)


trainer = L.Trainer(accelerator="cpu", devices=1)  # expect: code.hardcoded_cpu=info
trainer.fit(Policy())
