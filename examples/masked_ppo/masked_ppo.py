"""A small PPO with invalid-action masking over burraco's C++ vector environment (docs/rl.md
"A masked PPO loop"; this folder's README.md).

One file in the manner of a single-file PPO: ``num_envs`` hands of ``BurracoVectorEnv`` stepped
together for ``num_steps`` steps, advantages by GAE, then a few epochs of minibatch updates of the
clipped surrogate, a value loss and an entropy bonus. The policy is masked as in Huang and Ontañón,
"A Closer Look at Invalid Action Masking in Policy Gradient Algorithms": the logits of the ids that
are not legal are replaced by a large negative number before the softmax, so they get a
probability of exactly 0, are never sampled, and pass no gradient.

The environment's conventions met here (docs/rl.md "The vector environment"): observations float32
``(num_envs, 511)``, ``infos['action_mask']`` int8 ``(num_envs, action_size)``, a reward of 0 until
the hand's end and then its margin / 2000, and ``NEXT_STEP`` autoreset: the step after a hand's end
resets that env and ignores its action. That step has an all-zero mask; the loop sends action 0
for it and leaves it out of the losses and the advantages.

Run ``python masked_ppo.py`` (about a minute on one core), or import ``train`` and ``evaluate``.
"""

from __future__ import annotations

import argparse
import copy
import dataclasses
import time
from collections.abc import Callable
from typing import Any

import numpy as np
import torch
from torch import nn

from burraco.envs.vector import BurracoVectorEnv

# The logit given to an illegal id. exp(MASKED_LOGIT - max) is exactly 0 in float32, so an illegal
# id has probability 0 (not merely a small one) and its logit gets a gradient of 0.
MASKED_LOGIT = -1e9


@dataclasses.dataclass
class Config:
    """The run: the environment, the rollout's size, PPO's hyperparameters, the evaluation."""

    preset: str = "italian-2p"
    opponent: str = "random"
    num_envs: int = 16
    num_steps: int = 64
    updates: int = 20
    seconds: float | None = None   # stop after this many seconds instead (not reproducible then)
    seed: int = 1
    threads: int = 1
    hidden: int = 64
    learning_rate: float = 1e-3
    gamma: float = 0.99
    gae_lambda: float = 0.95
    epochs: int = 4
    minibatches: int = 4
    clip: float = 0.2
    value_coef: float = 0.5
    entropy_coef: float = 0.01
    max_grad_norm: float = 0.5
    eval_hands: int = 200
    eval_seed: int = 1_000_000     # the evaluation deals: eval_seed, eval_seed + 1, ...


class Agent(nn.Module):
    """A shared torso of two tanh layers, a linear policy head over every action id and a linear
    value head. Observations enter as sign(x) log(1 + |x|): counts of a card (0, 1, 2) stay apart
    and the sizes and scores (up to 108 and 1000) shrink to a few units."""

    def __init__(self, observation_size: int, action_size: int, hidden: int) -> None:
        super().__init__()
        self.torso = nn.Sequential(
            layer(nn.Linear(observation_size, hidden)), nn.Tanh(),
            layer(nn.Linear(hidden, hidden)), nn.Tanh(),
        )
        self.policy = layer(nn.Linear(hidden, action_size), std=0.01)  # near-uniform at first
        self.value = layer(nn.Linear(hidden, 1), std=0.01)   # values start near 0, as returns

    def forward(self, observations: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """The raw logits ``(batch, action_size)`` and the values ``(batch,)``."""
        x = torch.sign(observations) * torch.log1p(observations.abs())
        features = self.torso(x)
        return self.policy(features), self.value(features).squeeze(-1)


def layer(linear: nn.Linear, std: float = 2 ** 0.5) -> nn.Linear:
    """Orthogonal weights of gain ``std`` and zero biases, the usual initialisation for PPO."""
    nn.init.orthogonal_(linear.weight, std)
    nn.init.zeros_(linear.bias)
    return linear


def masked_distribution(logits: torch.Tensor, mask: torch.Tensor,
                        ) -> tuple[torch.Tensor, torch.Tensor]:
    """The log-probabilities and the probabilities of every id under the masked softmax: the
    logits of illegal ids (``mask`` False) become ``MASKED_LOGIT`` first, so their probability is
    exactly 0. Every row of ``mask`` must allow at least one id. (The probabilities come from
    ``softmax`` rather than ``log_probs.exp()``: on a CPU, ``exp`` of the many hugely negative
    entries takes a slow path, ``softmax`` does not.)"""
    masked = torch.where(mask, logits, MASKED_LOGIT)
    return torch.log_softmax(masked, dim=-1), torch.softmax(masked, dim=-1)


def sample(probs: torch.Tensor, generator: torch.Generator) -> torch.Tensor:
    """One id per row, drawn by inverting the cumulative distribution with a uniform number in
    (0, 1]: the first id whose cumulative probability reaches it, which has a probability above 0,
    so an illegal id is never drawn."""
    cumulative = probs.cumsum(-1)
    uniform = 1.0 - torch.rand((probs.shape[0], 1), generator=generator)
    chosen = torch.searchsorted(cumulative, uniform * cumulative[:, -1:])
    return chosen.squeeze(-1).clamp_(max=probs.shape[1] - 1)


def entropy(log_probs: torch.Tensor, probs: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    """The entropy of each row's masked distribution (an illegal id adds 0, not 0 * -1e9)."""
    return -torch.where(mask, probs * log_probs, 0.0).sum(-1)


def illegal_mass(probs: torch.Tensor, mask: torch.Tensor) -> float:
    """The largest probability any row gives to its illegal ids together: 0.0 when masking works."""
    return float(torch.where(mask, 0.0, probs).sum(-1).max())


def playable(masks: np.ndarray) -> tuple[torch.Tensor, torch.Tensor]:
    """The env's int8 masks as bools, and which rows have a legal id. A row with none is an env
    whose hand just ended (its next step is the reset, which ignores the action): it is given id
    0 alone, so that its distribution exists, and is left out of every loss."""
    mask = torch.from_numpy(masks).bool()
    valid = mask.any(-1)
    mask[~valid, 0] = True
    return mask, valid


def train(config: Config, envs: BurracoVectorEnv | None = None,
          log: Callable[[dict[str, Any]], None] | None = None,
          ) -> tuple[Agent, Agent, list[dict[str, Any]]]:
    """Trains for ``config.updates`` updates (or ``config.seconds``); returns the untrained agent
    (a copy of the initial weights), the trained one and one dict of statistics per update.
    ``envs`` replaces the vector environment the config describes; ``log`` is called with each
    update's statistics as soon as they exist."""
    torch.manual_seed(config.seed)
    torch.set_num_threads(config.threads)
    generator = torch.Generator().manual_seed(config.seed)  # the actions and the minibatches
    if envs is None:
        envs = BurracoVectorEnv(config.num_envs, config.preset, config.opponent,
                                threads=config.threads)
    n, steps = envs.num_envs, config.num_steps
    size = envs.single_action_space.n
    agent = Agent(envs.single_observation_space.shape[0], size, config.hidden)
    untrained = copy.deepcopy(agent)
    optimizer = torch.optim.Adam(agent.parameters(), lr=config.learning_rate, eps=1e-5)

    # The rollout, one row per (step, env): what the agent saw, did and was told.
    observations = torch.zeros((steps, n, envs.single_observation_space.shape[0]))
    masks = torch.zeros((steps, n, size), dtype=torch.bool)
    valid = torch.zeros((steps, n), dtype=torch.bool)
    actions = torch.zeros((steps, n), dtype=torch.long)
    old_log_probs = torch.zeros((steps, n))
    rewards = torch.zeros((steps, n))
    ends = torch.zeros((steps, n))
    values = torch.zeros((steps, n))

    observation, infos = envs.reset(seed=config.seed)
    started, history = time.perf_counter(), []
    for update in range(config.updates):
        if config.seconds is not None and time.perf_counter() - started >= config.seconds:
            break
        margins: list[float] = []
        final_rewards: list[float] = []
        rollout_illegal = 0.0
        for step in range(steps):
            observations[step] = torch.from_numpy(observation)
            masks[step], valid[step] = playable(infos["action_mask"])
            with torch.no_grad():
                logits, values[step] = agent(observations[step])
                log_probs, probs = masked_distribution(logits, masks[step])
                choice = sample(probs, generator)
            rollout_illegal = max(rollout_illegal, illegal_mass(probs, masks[step]))
            actions[step] = choice
            old_log_probs[step] = log_probs.gather(-1, choice[:, None]).squeeze(-1)
            observation, reward, terminated, _, infos = envs.step(choice.numpy())
            rewards[step] = torch.from_numpy(reward)
            ends[step] = torch.from_numpy(terminated.astype(np.float32))
            if terminated.any():
                margins.extend(infos["margin"][terminated].tolist())
                final_rewards.extend(reward[terminated].tolist())

        # GAE over the valid rows. A row that ends a hand stops the sum (ends = 1); the reset row
        # after it has no advantage and no return, and cuts nothing further back.
        with torch.no_grad():
            _, last_value = agent(torch.from_numpy(observation))
        advantages = torch.zeros((steps, n))
        running = torch.zeros(n)
        for step in reversed(range(steps)):
            following = last_value if step == steps - 1 else values[step + 1]
            alive = 1.0 - ends[step]
            delta = rewards[step] + config.gamma * following * alive - values[step]
            running = (delta + config.gamma * config.gae_lambda * alive * running) * valid[step]
            advantages[step] = running
        returns = advantages + values

        # Minibatch epochs over the valid rows only.
        rows = valid.reshape(-1).nonzero().squeeze(-1)
        flat = {"observations": observations.reshape(steps * n, -1),
                "masks": masks.reshape(steps * n, -1), "actions": actions.reshape(-1),
                "log_probs": old_log_probs.reshape(-1), "advantages": advantages.reshape(-1),
                "returns": returns.reshape(-1), "values": values.reshape(-1)}
        batch = max(1, len(rows) // config.minibatches)
        sums = {"policy_loss": 0.0, "value_loss": 0.0, "entropy": 0.0, "approx_kl": 0.0,
                "clip_fraction": 0.0}
        count, train_illegal = 0, 0.0
        for _ in range(config.epochs):
            order = rows[torch.randperm(len(rows), generator=generator)]
            for start in range(0, len(order) - batch + 1, batch):
                pick = order[start:start + batch]
                mask = flat["masks"][pick]
                logits, value = agent(flat["observations"][pick])
                log_probs, probs = masked_distribution(logits, mask)
                new = log_probs.gather(-1, flat["actions"][pick][:, None]).squeeze(-1)
                log_ratio = new - flat["log_probs"][pick]
                ratio = log_ratio.exp()
                advantage = flat["advantages"][pick]
                advantage = (advantage - advantage.mean()) / (advantage.std() + 1e-8)
                policy_loss = torch.max(
                    -advantage * ratio,
                    -advantage * ratio.clamp(1 - config.clip, 1 + config.clip)).mean()
                value_loss = 0.5 * ((value - flat["returns"][pick]) ** 2).mean()
                spread = entropy(log_probs, probs, mask).mean()
                loss = policy_loss + config.value_coef * value_loss - config.entropy_coef * spread
                optimizer.zero_grad()
                loss.backward()
                nn.utils.clip_grad_norm_(agent.parameters(), config.max_grad_norm)
                optimizer.step()
                with torch.no_grad():
                    sums["policy_loss"] += float(policy_loss)
                    sums["value_loss"] += float(value_loss)
                    sums["entropy"] += float(spread)
                    sums["approx_kl"] += float(((ratio - 1) - log_ratio).mean())
                    sums["clip_fraction"] += float(((ratio - 1).abs() > config.clip).float().mean())
                    train_illegal = max(train_illegal, illegal_mass(probs, mask))
                count += 1

        stats: dict[str, Any] = {
            "update": update + 1,
            "steps": (update + 1) * steps * n,
            "hands": len(margins),
            "mean_margin": float(np.mean(margins)) if margins else float("nan"),
            "mean_reward": float(np.mean(final_rewards)) if margins else float("nan"),
            "win_rate": float(np.mean([m > 0 for m in margins])) if margins else float("nan"),
            **{name: total / max(count, 1) for name, total in sums.items()},
            "illegal_mass": max(rollout_illegal, train_illegal),
            "seconds": time.perf_counter() - started,
        }
        history.append(stats)
        if log is not None:
            log(stats)
    return untrained, agent, history


def evaluate(agent: Agent, config: Config, hands: int | None = None, greedy: bool = True,
             seed: int | None = None) -> dict[str, float]:
    """Plays one hand on each of ``hands`` envs (the deals ``eval_seed``, ``eval_seed + 1``, ...,
    the same for every agent) against ``config.opponent``: the agent's most likely legal id
    (``greedy``) or one sampled (with a generator seeded by ``seed``, default ``config.seed``).
    Returns the win rate (margin > 0) and the mean margin in points."""
    hands = config.eval_hands if hands is None else hands
    envs = BurracoVectorEnv(hands, config.preset, config.opponent, threads=config.threads)
    generator = torch.Generator().manual_seed(config.seed if seed is None else seed)
    observation, infos = envs.reset(seed=config.eval_seed)
    margins = np.full(hands, np.nan)
    step = 0
    while np.isnan(margins).any():
        # The agent plays the envs still in their first hand; the others, whose hands no longer
        # count, take a random legal id from the engine, which is cheaper.
        playing = np.isnan(margins)
        choice = envs.random_actions(seed=step)
        mask, _ = playable(infos["action_mask"][playing])
        with torch.no_grad():
            logits, _ = agent(torch.from_numpy(observation[playing]))
            log_probs, probs = masked_distribution(logits, mask)
        choice[playing] = (log_probs.argmax(-1) if greedy else sample(probs, generator)).numpy()
        observation, _, terminated, _, infos = envs.step(choice)
        ended = terminated & playing
        if ended.any():
            margins[ended] = infos["margin"][ended]
        step += 1
    return {"win_rate": float(np.mean(margins > 0)), "mean_margin": float(np.mean(margins)),
            "hands": float(hands)}


HEADER = (f"{'update':>6} {'steps':>7} {'hands':>5} {'margin':>7} {'win':>5} {'policy':>8} "
          f"{'value':>8} {'entropy':>7} {'kl':>7} {'illegal':>7} {'time':>6}")


def row(stats: dict[str, Any]) -> str:
    return (f"{stats['update']:>6} {stats['steps']:>7} {stats['hands']:>5} "
            f"{stats['mean_margin']:>7.1f} {stats['win_rate']:>5.2f} {stats['policy_loss']:>8.4f} "
            f"{stats['value_loss']:>8.5f} {stats['entropy']:>7.3f} {stats['approx_kl']:>7.4f} "
            f"{stats['illegal_mass']:>7.1g} {stats['seconds']:>5.1f}s")


def main(argv: list[str] | None = None) -> None:
    defaults = Config()
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--preset", default=defaults.preset)
    parser.add_argument("--opponent", default=defaults.opponent,
                        help="'random', 'greedy' or 'heuristic' (default %(default)s)")
    parser.add_argument("--num-envs", type=int, default=defaults.num_envs)
    parser.add_argument("--num-steps", type=int, default=defaults.num_steps)
    budget = parser.add_mutually_exclusive_group()
    budget.add_argument("--updates", type=int, default=defaults.updates)
    budget.add_argument("--seconds", type=float, default=None,
                        help="train for this long instead of a number of updates")
    parser.add_argument("--seed", type=int, default=defaults.seed)
    parser.add_argument("--threads", type=int, default=defaults.threads,
                        help="torch's threads and the environment's (default %(default)s)")
    parser.add_argument("--eval-hands", type=int, default=defaults.eval_hands)
    args = parser.parse_args(argv)
    config = Config(preset=args.preset, opponent=args.opponent, num_envs=args.num_envs,
                    num_steps=args.num_steps,
                    updates=10 ** 9 if args.seconds is not None else args.updates,
                    seconds=args.seconds, seed=args.seed, threads=args.threads,
                    eval_hands=args.eval_hands)

    print(f"masked PPO on {config.preset} against {config.opponent!r}: {config.num_envs} envs x "
          f"{config.num_steps} steps an update, seed {config.seed}")
    print(HEADER)
    untrained, agent, history = train(config, log=lambda stats: print(row(stats), flush=True))
    first, last = history[: max(1, len(history) // 5)], history[-max(1, len(history) // 5):]
    print(f"mean margin of the training hands: first {len(first)} updates "
          f"{mean_of(first, 'mean_margin'):.1f}, last {len(last)} updates "
          f"{mean_of(last, 'mean_margin'):.1f}; largest illegal mass "
          f"{max(stats['illegal_mass'] for stats in history):g}")
    print(f"evaluation on {config.eval_hands} deals against {config.opponent!r} "
          f"(seeds {config.eval_seed}...):")
    for name, policy in (("untrained", untrained), ("trained", agent)):
        for greedy in (True, False):
            result = evaluate(policy, config, greedy=greedy)
            print(f"  {name:>9} {'greedy' if greedy else 'sampled':>7}: win rate "
                  f"{result['win_rate']:.2f}, mean margin {result['mean_margin']:+.1f}")


def mean_of(history: list[dict[str, Any]], key: str) -> float:
    """The mean of a statistic over updates, each weighted by its number of hands."""
    hands = sum(stats["hands"] for stats in history)
    return sum(stats[key] * stats["hands"] for stats in history if stats["hands"]) / max(hands, 1)


if __name__ == "__main__":
    main()
