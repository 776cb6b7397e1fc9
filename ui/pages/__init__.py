"""Each page's logic, one module per page (``ui.pages.<page>`` for ``views/<page>.py``):
its ``Settings`` (everything the page's URL holds: what its report and a code generator
read), its computations as cached functions of those settings, and its sentence and table
builders. No layout: the view draws, these compute and write."""
