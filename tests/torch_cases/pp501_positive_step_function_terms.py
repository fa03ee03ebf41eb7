"""An A2C update def (backward and an optimizer step once per call, no loop around them) whose recurrent
sub-batch loop sums the loss it backpropagates and reads each term's value on the host (hold-out 14's
torch-ac): the loop runs on every call, so its reads do too. The module places nothing on a device (its
caller does, in another module): `high` since torch-fix90 (`UNPLACED_STEP_READ_LEVEL`)."""

import torch


class A2CAlgo:
    def __init__(self, acmodel, lr=0.01, recurrence=4):
        self.acmodel = acmodel
        self.recurrence = recurrence
        self.optimizer = torch.optim.RMSprop(acmodel.parameters(), lr)

    def update_parameters(self, exps, inds):
        update_value_loss = 0
        update_loss = 0
        for i in range(self.recurrence):
            sb = exps[inds + i]
            dist, value = self.acmodel(sb.obs)
            value_loss = (value - sb.returnn).pow(2).mean()
            loss = -(dist.log_prob(sb.action) * sb.advantage).mean() + 0.5 * value_loss
            update_value_loss += value_loss.item()  # expect: PP501
            update_loss += loss
        update_loss /= self.recurrence
        self.optimizer.zero_grad()
        update_loss.backward()
        self.optimizer.step()
        return {"value_loss": update_value_loss / self.recurrence}

    def evaluate(self, exps, inds):
        values = []
        with torch.no_grad():
            for i in range(self.recurrence):
                dist, value = self.acmodel(exps[inds + i].obs)
                values.append(value.mean().item())
        return values
