from permem.cli import main

main()
