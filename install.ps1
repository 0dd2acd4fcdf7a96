# Installs ra3 on Windows from a GitHub release, then runs `ra3 setup`:
#   irm https://github.com/__RA3_REPOSITORY__/releases/latest/download/install.ps1 | iex
#   & ([scriptblock]::Create((irm …/install.ps1))) --yes      (arguments go to `ra3 setup`)
# Downloads ra3-windows-x64.exe, checks its SHA-256 against the release's SHA256SUMS and installs it to
# the stable per-user path `ra3 setup` uses (<RA3_HOME or %USERPROFILE%\.ra3modxml>\bin\ra3.exe). A failed
# download or a checksum mismatch stops with an error and installs nothing. Errors are thrown, never
# `exit`: run through iex, exit would close the user's PowerShell window.
# Environment: RA3_DOWNLOAD_BASE  URL of a folder with the assets and SHA256SUMS (default: the latest
#                                 release, or the release RA3_VERSION, e.g. v0.1.0)
#              RA3_INSTALL_DIR    where to put ra3.exe (default: the stable path above)
#              RA3_NO_SETUP=1     install only; do not run `ra3 setup`

$ErrorActionPreference = 'Stop'
# Windows PowerShell 5 downloads many times slower while it draws a progress bar.
$ProgressPreference = 'SilentlyContinue'
[Net.ServicePointManager]::SecurityProtocol = [Net.ServicePointManager]::SecurityProtocol -bor [Net.SecurityProtocolType]::Tls12

# Stamped by the release workflow with the repository it was released from.
$repository = '__RA3_REPOSITORY__'
$asset = 'ra3-windows-x64.exe'

$base = $env:RA3_DOWNLOAD_BASE
if (-not $base) {
    if ($repository.StartsWith('__')) {
        throw 'install.ps1: RA3_DOWNLOAD_BASE is not set, and this copy of install.ps1 did not come from a release (take the one attached to a release, or set RA3_DOWNLOAD_BASE to the folder holding the assets)'
    }
    if ($env:RA3_VERSION) {
        $base = "https://github.com/$repository/releases/download/$($env:RA3_VERSION)"
    }
    else {
        $base = "https://github.com/$repository/releases/latest/download"
    }
}
$base = $base.TrimEnd('/')

# Windows on Arm runs the x64 build through its emulation.
if ($env:PROCESSOR_ARCHITECTURE -ne 'AMD64' -and $env:PROCESSOR_ARCHITECTURE -ne 'ARM64') {
    throw "install.ps1: no ra3 build for $($env:PROCESSOR_ARCHITECTURE) Windows"
}

$stateDir = $env:RA3_HOME
if (-not $stateDir) {
    $stateDir = Join-Path $env:USERPROFILE '.ra3modxml'
}
$installDir = $env:RA3_INSTALL_DIR
if (-not $installDir) {
    $installDir = Join-Path $stateDir 'bin'
}
$target = Join-Path $installDir 'ra3.exe'

$tmp = Join-Path ([IO.Path]::GetTempPath()) ('ra3-install-' + [Guid]::NewGuid().ToString('N'))
New-Item -ItemType Directory -Path $tmp | Out-Null
try {
    Write-Host "install.ps1: downloading $asset from $base"
    $sums = Join-Path $tmp 'SHA256SUMS'
    $download = Join-Path $tmp $asset
    try {
        Invoke-WebRequest -Uri "$base/SHA256SUMS" -OutFile $sums -UseBasicParsing
        Invoke-WebRequest -Uri "$base/$asset" -OutFile $download -UseBasicParsing
    }
    catch {
        throw "install.ps1: could not download from ${base}: $($_.Exception.Message); nothing was installed"
    }

    $expected = $null
    foreach ($line in Get-Content -LiteralPath $sums) {
        $fields = $line.Trim() -split '\s+', 2
        if ($fields.Count -eq 2 -and $fields[1].TrimStart('*') -eq $asset) {
            $expected = $fields[0].ToLowerInvariant()
            break
        }
    }
    if (-not $expected) {
        throw "install.ps1: SHA256SUMS from $base has no line for $asset; nothing was installed"
    }
    $actual = (Get-FileHash -Algorithm SHA256 -LiteralPath $download).Hash.ToLowerInvariant()
    if ($actual -ne $expected) {
        throw "install.ps1: checksum mismatch for ${asset}: SHA256SUMS says $expected, the download is $actual; nothing was installed"
    }

    New-Item -ItemType Directory -Force -Path $installDir | Out-Null
    # A running ra3.exe cannot be overwritten, only renamed: move it aside, then move the new one in.
    if (Test-Path -LiteralPath $target) {
        $aside = "$target.old-" + [DateTime]::UtcNow.Ticks
        Move-Item -LiteralPath $target -Destination $aside -Force
        Remove-Item -LiteralPath $aside -Force -ErrorAction SilentlyContinue
    }
    Move-Item -LiteralPath $download -Destination $target -Force
    Write-Host "install.ps1: installed $(& $target --version) at $target (SHA-256 checked)"
}
finally {
    Remove-Item -LiteralPath $tmp -Recurse -Force -ErrorAction SilentlyContinue
}

if ($env:RA3_NO_SETUP -eq '1') {
    Write-Host "install.ps1: RA3_NO_SETUP=1: run $target setup when you are ready"
}
else {
    & $target setup @args
    if ($LASTEXITCODE -ne 0) {
        Write-Warning "ra3 setup exited with status $LASTEXITCODE (see above); run $target setup again when ready"
    }
}
