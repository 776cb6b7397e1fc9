"""The first schema: activities and what students submit to them.

Revision ID: 0001
Revises:
Create Date: 2026-11-29

Only what each activity needs is stored (issue 37): a poll keeps reported answers, never a
true one; the attacker game keeps each student's four counts; the class histogram keeps raw
values until the activity closes, and its released (noisy) histograms. A student is known
by the SHA-256 of the token in their browser's cookie, a teacher by the SHA-256 of their
key. Times are seconds since the epoch (floats: the same in every dialect).
"""

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def _owned(name: str, *columns: sa.Column, unique_student: bool = True) -> None:
    """A table of rows that belong to one activity, deleted with it."""
    constraints = [sa.UniqueConstraint("code", "student", name=f"uq_{name}_student")] \
        if unique_student else []
    op.create_table(
        name,
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("code", sa.String(16),
                  sa.ForeignKey("activities.code", ondelete="CASCADE"), nullable=False),
        *columns,
        sa.Column("at", sa.Float, nullable=False),
        *constraints,
    )
    op.create_index(f"ix_{name}_code", name, ["code"])


def upgrade() -> None:
    op.create_table(
        "activities",
        sa.Column("code", sa.String(16), primary_key=True),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("config", sa.Text, nullable=False),
        sa.Column("teacher_key_hash", sa.String(64), nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("expires_at", sa.Float, nullable=False),
        sa.Column("closed_at", sa.Float, nullable=True),
        sa.Column("shared", sa.Boolean, nullable=False, server_default=sa.false()),
    )
    op.create_index("ix_activities_expires_at", "activities", ["expires_at"])
    _owned("poll_answers", sa.Column("student", sa.String(64), nullable=False),
           sa.Column("reported", sa.Integer, nullable=False))
    _owned("attack_tallies", sa.Column("student", sa.String(64), nullable=False),
           sa.Column("false_alarms", sa.Integer, nullable=False),
           sa.Column("null_rounds", sa.Integer, nullable=False),
           sa.Column("misses", sa.Integer, nullable=False),
           sa.Column("alt_rounds", sa.Integer, nullable=False))
    _owned("histogram_values", sa.Column("student", sa.String(64), nullable=False),
           sa.Column("grp", sa.Integer, nullable=False),
           sa.Column("value", sa.Integer, nullable=False))
    _owned("histogram_releases", sa.Column("alpha", sa.Float, nullable=False),
           sa.Column("counts", sa.Text, nullable=False), unique_student=False)
    op.create_table(
        "join_attempts",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("who", sa.String(80), nullable=False),
        sa.Column("at", sa.Float, nullable=False),
    )
    op.create_index("ix_join_attempts_who_at", "join_attempts", ["who", "at"])


def downgrade() -> None:
    for name in ("join_attempts", "histogram_releases", "histogram_values",
                 "attack_tallies", "poll_answers", "activities"):
        op.drop_table(name)
