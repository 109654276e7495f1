"""What each command does, as library functions that know nothing of
click: the command line (`pbem.cli`) parses options, calls one function
here and prints what it returns, so that a script, the web page or a test
can do the same without a terminal. Functions that write take a `Keys`
and a list to collect notes in; those that report give lines of text or
plain data for `--json`.
"""
