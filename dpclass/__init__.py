"""Class activities: what a room of students submits, kept in one database.

``dpclass.activities`` holds the rules of an activity (what a teacher may set, join codes,
teacher keys, student tokens); ``dpclass.storage`` is the one module that reads and writes
the database (SQLAlchemy Core: SQLite by default, PostgreSQL when ``DPCLASS_DATABASE_URL``
is set; the schema's versions are the Alembic migrations in ``dpclass/migrations``). No
Streamlit here: the pages in ``views/class_*.py`` call these modules through ``ui.classroom``.
"""
