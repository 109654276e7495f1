"""What each command does, as library functions that know nothing of
click: the command line (`pbem.cli`) parses options, calls one function
here and prints what it returns (lines of text, plain data for `--json`,
the files written and the notes made on the way), so that a script, the
web page or a test can do the same without a terminal.
"""
