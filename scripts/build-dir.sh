# Sourced by the scripts that hand their options on to setup.sh: sets
# `build` to the build directory those options name (--build DIR; default
# build/).
build=build
for ((i = 1; i <= $#; i++)); do
  if [[ "${!i}" == "--build" ]]; then
    next=$((i + 1))
    build="${!next:-}"
  fi
done
