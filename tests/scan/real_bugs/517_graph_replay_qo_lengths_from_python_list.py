# source: https://github.com/sgl-project/sglang/pull/29415
# kind: per_step_host_alloc
# bug: on every CUDA-graph replay the sparse-attention backend rebuilt the per-request query-length tensor for draft-extend with torch.tensor([num_draft_tokens] * bs, device=cuda), which materialises a Python list on the host and does a pageable host-to-device copy that blocks on the queued stream (~8.5 ms per decode step); the fix fills the constant lengths directly on the device with torch.full((bs,), num_draft_tokens, ...).
# split: test24
import torch


def seqlens_expand(extend_seq_lens: torch.Tensor, seq_lens: torch.Tensor) -> torch.Tensor:
    # for every request r and draft token j: visible kv length = seq_len - q_len + j + 1
    q = extend_seq_lens.to(torch.int64)
    starts = seq_lens.to(torch.int64) - q
    req = torch.repeat_interleave(torch.arange(q.numel(), device=q.device), q)
    pos = torch.arange(req.numel(), device=q.device) - torch.repeat_interleave(torch.cumsum(q, 0) - q, q)
    return (starts[req] + pos + 1).to(torch.int32)


class SparseAttnMetadata:
    def __init__(self, max_bs, max_pages, device):
        self.page_table = torch.zeros(max_bs, max_pages, dtype=torch.int32, device=device)
        self.seqlens_expanded = None


class SparseAttnBackend:
    def __init__(self, num_draft_tokens: int, max_bs: int = 64, max_pages: int = 256, device="cuda"):
        self.device = torch.device(device)
        self.num_draft_tokens = num_draft_tokens
        self.graph_metadata = SparseAttnMetadata(max_bs, max_pages, self.device)

    def apply_cuda_graph_metadata(self, bs: int, seq_lens: torch.Tensor, page_indices: torch.Tensor):
        metadata = self.graph_metadata
        max_seqlen_k = page_indices.shape[1]
        metadata.page_table[:bs, :max_seqlen_k].copy_(page_indices)
        extend_seq_lens = torch.tensor([self.num_draft_tokens] * bs, device=self.device, dtype=torch.int32)  # bug: per_step_host_alloc
        metadata.seqlens_expanded = seqlens_expand(extend_seq_lens, seq_lens[:bs])
        return metadata


if __name__ == "__main__":
    dev = "cuda" if torch.cuda.is_available() else "cpu"
    backend = SparseAttnBackend(num_draft_tokens=3, device=dev)
    for step in range(100):
        bs = 8
        seq_lens = torch.randint(16, 128, (bs,), device=dev)
        pages = torch.randint(0, 1000, (bs, 32), dtype=torch.int32, device=dev)
        backend.apply_cuda_graph_metadata(bs, seq_lens, pages)
    print(backend.graph_metadata.seqlens_expanded.shape)
