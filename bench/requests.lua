-- wrk script for the write scenarios (POST, PUT): rotates through the requests listed in
-- the file named by $BENCH_REQUESTS, one per line: METHOD <tab> PATH <tab> JSON BODY.
-- bench/run.ts writes that file (documentIds are only known once the data is seeded).
local requests = {}
local i = 0

function init(args)
  local file = os.getenv("BENCH_REQUESTS")
  for line in io.lines(file) do
    local method, path, body = line:match("^([^\t]+)\t([^\t]+)\t(.*)$")
    if method then
      local headers = { ["Content-Type"] = "application/json" }
      requests[#requests + 1] = wrk.format(method, path, headers, body)
    end
  end
  if #requests == 0 then error("no requests in " .. tostring(file)) end
end

function request()
  i = i % #requests + 1
  return requests[i]
end
