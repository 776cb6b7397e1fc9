"""Alembic's environment for dpclass: migrations run on the connection that
dpclass.storage.Store hands over (``config.attributes["connection"]``), online only."""

from alembic import context

connection = context.config.attributes["connection"]
context.configure(connection=connection, target_metadata=None, render_as_batch=True)
with context.begin_transaction():
    context.run_migrations()
