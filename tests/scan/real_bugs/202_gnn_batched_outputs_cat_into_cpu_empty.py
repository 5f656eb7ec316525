# source: https://github.com/ispras/GNN-AID/pull/38
# also: https://github.com/ispras/GNN-AID/commit/22994323bc051cd6815b80823fbc2f742382e57e
# kind: cpu_accumulator
# bug: for multi-graph datasets the model manager's run_model() started its output accumulator as torch.empty(0) on the CPU and torch.cat-ed each batch's CUDA logits onto it, so inference on a GPU failed (the single-graph branch already created it on the data's device); the fix gives the accumulator device=dataset.data.x.device.
# split: test8
import torch
from torch_geometric.loader import DataLoader


class GraphModelManager:
    def __init__(self, gnn, batch_size=64, device="cuda"):
        self.device = torch.device(device if torch.cuda.is_available() else "cpu")
        self.gnn = gnn.to(self.device)
        self.batch = batch_size

    def run_model(self, dataset, mask, out="logits"):
        run = {"logits": self.gnn.__call__, "answers": self.gnn.get_answer}[out]
        self.gnn.eval()
        with torch.no_grad():
            if dataset.is_multi():
                loader = DataLoader(dataset.graphs.index_select(mask), batch_size=self.batch, shuffle=False)
                full_out = torch.empty(0)  # bug: cpu_accumulator
                for data in loader:
                    data = data.to(self.device)
                    batch_out = run(data.x, data.edge_index, data.batch)
                    full_out = torch.cat((full_out, batch_out))
            else:
                data = dataset.single_graph.to(self.device)
                full_out = torch.empty(0, device=data.x.device)
                for idx in torch.split(mask.nonzero().flatten(), self.batch):
                    logits = run(data.x, data.edge_index)
                    full_out = torch.cat((full_out, logits[idx]))
        return full_out
