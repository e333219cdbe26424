from rofl.cli import main

main()
