"""A detector's box decoder, run on every validation image and every prediction: for each of the three
feature maps it builds the cell grid with `torch.linspace(...).repeat(...)` on the host and casts it to
the CUDA type (bubbliiiing's `DecodeBox.decode_box`). The loop steps nothing, but a grid is reported at
the rule's level (`medium`).
(torch-fix111) A grid in a def nothing follows, or in a loop that steps nothing, is `medium`, never `high`
(2 of 5 read right at `high` over hold-outs 29-35)."""

import torch


class DecodeBox:
    def __init__(self, anchors, num_classes):
        self.anchors, self.num_classes = anchors, num_classes

    def decode_box(self, inputs):
        outputs = []
        for feats in inputs:
            batch_size, _, h, w = feats.shape
            prediction = feats.view(batch_size, 3, -1, h, w).permute(0, 1, 3, 4, 2)
            x = torch.sigmoid(prediction[..., 0])
            y = torch.sigmoid(prediction[..., 1])
            FloatTensor = torch.cuda.FloatTensor if x.is_cuda else torch.FloatTensor
            grid_x = torch.linspace(0, w - 1, w).repeat(h, 1).type(FloatTensor)  # expect: PP506
            grid_y = torch.linspace(0, h - 1, h).repeat(w, 1).t().type(FloatTensor)  # expect: PP506
            outputs.append(torch.stack([x + grid_x, y + grid_y], -1))
        return outputs
