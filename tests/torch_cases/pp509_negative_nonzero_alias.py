# coach's slot-name predictor (hold-outs 31, 49) with torch imported as `th`: the tensor `th.nonzero`
# searches is a CPU `LongTensor` made from the labels, so no device read (review 28 item 7)
import torch as th
from torch import nn


class SlotPredictor(nn.Module):
    """coach's slot-name predictor (hold-outs 31, 49): the tensor searched is a CPU `LongTensor` made from
    the labels; the device value is only used by the rows it picks"""

    def forward(self, hidden_layers, binary_labels):
        features = []
        bsz = hidden_layers.size()[0]
        for i in range(bsz):
            hidden_i = hidden_layers[i]
            bin_label = th.LongTensor(binary_labels[i])
            b_list = bin_label == 1
            i_list = bin_label == 2
            nonzero_b = th.nonzero(b_list)
            num_slotname = nonzero_b.size()[0]
            for j in range(num_slotname):
                if j == 0:
                    prev_index = nonzero_b[j]
                    continue
                curr_index = nonzero_b[j]
                nonzero_i = th.nonzero(i_list[prev_index:curr_index])
                features.append(hidden_i[nonzero_i + prev_index].sum(0))
                prev_index = curr_index
        return features
