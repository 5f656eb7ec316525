# source: https://github.com/stanford-futuredata/ColBERT/pull/166
# also: https://github.com/stanford-futuredata/ColBERT/commit/b3a80aa37b1bac01fbdb0ef421c23e537885c574
# kind: cpu_accumulator
# bug: while scoring candidate passages in chunks on the GPU, an empty chunk appended a placeholder `torch.zeros(n, dtype=...)` with no device to the list of CUDA score tensors, so the later `torch.cat` mixed devices; the fix moves the placeholder to the GPU (and asserts the concatenated scores are on CUDA).
# split: test16
import torch


class CandidateScorer:
    def __init__(self, centroids, codes, doc_lengths, use_gpu=True):
        self.device = torch.device("cuda" if use_gpu and torch.cuda.is_available() else "cpu")
        self.centroids = centroids.to(self.device)
        self.codes = codes.to(self.device)
        self.doc_lengths = doc_lengths

    def reduce(self, scores, lengths):
        out, start = [], 0
        for n in lengths.tolist():
            out.append(scores[start:start + n].max(dim=-1).values.sum())
            start += n
        return torch.stack(out)

    def approximate(self, query, pids, chunk=4096):
        query = query.to(self.device)
        centroid_scores = self.centroids @ query.T
        scores = []
        for start in range(0, len(pids), chunk):
            pids_ = pids[start:start + chunk]
            lengths = self.doc_lengths[pids_]
            codes_ = self.codes[: int(lengths.sum())]
            chunk_scores = centroid_scores[codes_.long()]
            if chunk_scores.shape[0] == 0:
                scores.append(torch.zeros((len(pids_),), dtype=chunk_scores.dtype))  # bug: cpu_accumulator
                continue
            scores.append(self.reduce(chunk_scores, lengths))
        scores = torch.cat(scores, dim=0)
        return scores

    def rank(self, query, pids, ndocs=256):
        with torch.inference_mode():
            scores = self.approximate(query, pids)
            if ndocs < len(scores):
                pids = pids[torch.topk(scores, k=ndocs).indices.cpu()]
            return pids
