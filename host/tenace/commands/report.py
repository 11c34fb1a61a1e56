"""`tenace report`: an event file's results written out for others to read: PBN 2.1, USEBIO 1.2, CSV, a static web
site, and each player's result e-mailed."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from lxml import etree

from tenace.commands.options import add_event_file, cannot_write, event_file, open_event, output_file, output_folder
from tenace.errors import UsageError
from tenace.page_base.words import DEFAULT, LANGUAGES
from tenace.reports.event_csv import write_section_csv
from tenace.reports.event_pbn import write_section_pbn
from tenace.reports.event_results import EventResults, ResultsError, SectionResults, event_results
from tenace.reports.event_teams import MatchResult, seat_names
from tenace.reports.event_usebio import Extras, UsebioError, Written, event_extras, usebio_bytes, usebio_tree
from tenace.store.db import read_transaction
from tenace.store.hand_records import hand_record
from tenace.store.ledger import head
from tenace.usebio.schema import UsebioSchemaError
from tenace.web.debrief_email import Settings, read_settings, send, sent_file
from tenace.web.static_site import Site

HELP = "write an event file's results for others to read (PBN 2.1, USEBIO 1.2, CSV, a static web site, e-mail)"
EPILOG = """\
examples:
  tenace report club.sqlite --pbn tuesday.pbn                    one section: its boards, travellers, ranking
  tenace report club.sqlite --section B --pbn tuesday-b.pbn      one file per section when there are several
  tenace report club.sqlite --pbn -                              to standard output
  tenace report club.sqlite --usebio tuesday.xml --club "Riga BC" --club-id 2074
                                                                 every section, for a scoring or masterpoints site
  tenace report club.sqlite --csv results/                       every section's ranking and travellers
  tenace report club.sqlite --html site/                         the pages of tenace serve, as files
  tenace report club.sqlite --html site-lv/ --lang lv            the same pages in Latvian
  tenace report club.sqlite --email mail.toml                    each player's result and link, by e-mail

The PBN file holds a game per board (dealer, vulnerability, the deal when the event file has its hand
record) with its ScoreTable, and the ranking as a TotalScoreTable: `tenace score` reads it back to the
same rankings as `tenace results`. A team match is written as two games a board (open room, closed
room) with the teams' names: `tenace score --method teams` reads it back to the same IMPs and VPs; a
Swiss round's section has several matches: --match TEAM picks the one a team plays. A Law 90
penalty is the TotalScoreTable's Penalty column (the MPs taken off, which tenace score takes off
again). The file opens with a {...} comment holding the event file's chain head, and every --html
page ends with it: `tenace check EVENT --head HEX` says whether an event file is the one published.

The --usebio file is USEBIO 1.2 XML, the format club scoring programs exchange: the club (--club, its name,
is needed; --club-id its number), the event, every section's pairs with their players' names and member
numbers (the roster's), every board's traveller (contract, declarer, lead, tricks, score, and matchpoints,
or Butler IMPs with the board's datum), a director's artificial score as the real files write it (A6040:
NS's then EW's percentage; an assigned score as NS's score), and the hand records when the event file has
them. A Law 90 penalty is taken off the pair's TOTAL_SCORE (and PERCENTAGE), and said in its ADJUSTMENT.
What USEBIO cannot say is refused with one line: a weighted or split score (Law 12C1(c)), a team match, an
individual, two sections dealing one board differently (give --section). The file is checked against
tenace's schema of the format (tenace/usebio/usebio-1.2.rng) before it is written; tenace score reads it.

The CSV folder gets two files a section, A-ranking.csv and
A-travellers.csv (UTF-8, a header line): for spreadsheets and club websites; a teams section
gets A-matches.csv (each match's IMPs and VPs) and A-boards.csv (both rooms of every board).

The --html folder is a static site of the event: index.html with every section's ranking, a page per
board (board/A/7.html: the traveller, with the hand record, double-dummy table and par when the event
file has them), a debrief per pair (pair/A/NS3.html: each board it played with the hand record, the field's
traveller with its line marked, its matchpoints and percentage, the lead and the board's notes) and a page
per player the event names (player/101.html, linking their pairs), the same pages as `tenace serve` without
its live script, in one of the terminal's languages (--lang: en, he, lv, sk, sr; players' names as they
are). The links are relative: copy the folder to any web host or open index.html from disk.
Nothing is written over without --force: a --pbn file that is there, a --csv folder that holds CSV
files, an --html folder that is not empty are refused unless --force (the files are then written
over, other files left); --pbn - (standard output) is never refused. An event file holding damaged
results (a result changed outside Tenace, or a disk fault: tenace check names them) is not published
unless --force, which leaves them out and says so (a --usebio file is refused the same way). Give --pbn,
--usebio, --csv, --html, --email, or several.

--email SETTINGS sends each player the event names (tenace names) who has an e-mail address in the
roster their place, percentage and the link to their pair's page, through the club's SMTP server.
The settings file (TOML) holds the server and its login, never the command line:

  [smtp]
  host = "smtp.club.example"
  port = 587                            # the default
  starttls = true                       # the default; a login is sent only over STARTTLS
  user = "results@club.example"         # user and password: optional, together
  password = "..."
  from = "Riga BC <results@club.example>"
  cafile = "club-ca.pem"                # optional: a club's own certificate authority
  [email]
  roster = "members.csv"                # number, name, club id, masterpoints, handicap, e-mail
  base = "https://results.club.example" # where the players' phones reach the pages (tenace serve's
                                        # address, or the web host of --html)

Each message is sent once: what was sent is kept beside the event file (club.sqlite.emailed.csv: a
player's number, address and when), so a second run sends only to those the first did not reach
(an address added to the roster since, one the server refused); each run names who could not be
reached."""


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("report", help=HELP, description=HELP, epilog=EPILOG,
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    add_event_file(p)
    p.add_argument("--pbn", metavar="FILE", help="the PBN file to write ('-': standard output)")
    p.add_argument("--usebio", metavar="FILE", help="the USEBIO 1.2 XML file to write ('-': standard output)")
    p.add_argument("--club", metavar="NAME", help="--usebio: the club that ran the event (USEBIO's CLUB_NAME)")
    p.add_argument("--club-id", metavar="NUMBER", help="--usebio: the club's number (USEBIO's CLUB_ID_NUMBER)")
    p.add_argument("--csv", type=Path, metavar="DIR", help="the folder for the CSV files (made if new)")
    p.add_argument("--html", type=Path, metavar="DIR", help="the folder for the static web site (made if new)")
    p.add_argument("--email", type=Path, metavar="SETTINGS",
                   help="e-mail each player with an address in the roster their result and link, once, through the "
                        "SMTP server the settings file names (see below)")
    p.add_argument("--force", action="store_true",
                   help="write over what is there (a --pbn or --usebio file, a --csv folder's CSV files, an --html "
                        "folder's pages); publish although the event file holds damaged results (left out)")
    p.add_argument("--lang", metavar="XX",
                   help=f"the --html site's language: {', '.join(LANGUAGES)} (default {DEFAULT})")
    p.add_argument("--section", metavar="S", help="the section to write (needed when the event has several)")
    p.add_argument("--match", type=int, metavar="TEAM",
                   help="--pbn of a Swiss round (a section of several team matches): the match this team plays")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    path = event_file(args)
    if args.pbn is None and args.usebio is None and args.csv is None and args.html is None and args.email is None:
        raise UsageError("say what to write: --pbn FILE, --usebio FILE, --csv DIR, --html DIR, --email SETTINGS, or "
                         "several")
    settings = read_settings(args.email) if args.email is not None else None
    if settings is not None and args.section is not None:
        raise UsageError("--email writes to every player of the event: leave out --section")
    if args.match is not None and args.pbn is None:
        raise UsageError("--match picks the team match a --pbn file holds: give --pbn FILE too")
    if args.lang is not None and args.html is None:
        raise UsageError("--lang is for --html DIR: the static site's language")
    if args.lang is not None and args.lang not in LANGUAGES:
        raise UsageError(f"--lang {args.lang!r}: the pages speak {', '.join(LANGUAGES)}")
    target = None if args.pbn in (None, "-") else Path(args.pbn)
    if target is not None:
        output_file("--pbn", target, not_same_as=path)
        if target.exists() and not args.force:
            raise UsageError(f"--pbn {target} is there already: give a new file name, or --force to write over it")
    usebio = usebio_target(args, path)
    if args.csv is not None:
        csv_folder(args.csv, args.force)
        output_folder("--csv", args.csv)
    if args.html is not None:
        html_folder(args.html, args.force)
    with open_event(path) as conn:
        try:
            with read_transaction(conn):
                results = event_results(conn, args.section)
                chain = head(conn)
                if args.pbn is not None and len(results.sections) > 1:
                    names = ", ".join(s.section for s in results.sections)
                    raise UsageError(f"this event has sections {names}: give --section, one PBN file each")
                section = results.sections[0]
                deals = {b: d for b in section.boards if (d := hand_record(conn, section.section, b)) is not None}
                seats = seat_names(conn, section.section)
                match = _match(section, args.match) if args.pbn is not None else None
                extras = event_extras(conn, [s.section for s in results.sections]) if args.usebio else Extras()
        except ResultsError as e:
            raise UsageError(str(e)) from None
    damaged = sum(each.damaged for each in results.sections)
    if damaged:
        what = f"the event file holds {damaged} damaged result{'s' if damaged > 1 else ''} (tenace check names them)"
        if not args.force:
            raise UsageError(f"{what}: enter them again before publishing, or --force to publish without them")
        print(f"tenace report: {what}: published without them (--force)", file=sys.stderr)
    if args.csv is not None:
        for each in results.sections:
            try:
                written = write_section_csv(each, args.csv)
            except OSError as e:
                raise cannot_write("--csv", args.csv, e) from None
            print(f"wrote {', '.join(str(w) for w in written)}: section {each.section}", file=sys.stderr)
    if args.usebio is not None:
        write_usebio(results, extras, args.club, args.club_id, chain, usebio)
    if args.html is not None:
        write_html(results, args.html, args.lang or DEFAULT, chain)
    if settings is not None:
        email(path, results, settings)
    if args.pbn is None:
        return 0
    if target is None:
        write_section_pbn(results, section, deals, sys.stdout, seats, match, chain)
        return 0
    try:
        with target.open("w", encoding="utf-8", newline="\n") as out:
            write_section_pbn(results, section, deals, out, seats, match, chain)
    except OSError as e:
        raise cannot_write("--pbn", target, e) from None
    print(f"wrote {target}: section {section.section}, {len(section.boards)} boards, "
          f"{section.results_in} of {section.expected} results", file=sys.stderr)
    return 0


def email(path: Path, results: EventResults, settings: Settings) -> None:
    """Each player's letter sent once; what was sent, before and now, and who could not be reached, said."""
    done = send(path, results, settings)
    for letter in done.sent:
        print(f"sent {letter.email}: {letter.name} (#{letter.number})", file=sys.stderr)
    before = f", {done.earlier} sent before" if done.earlier else ""
    print(f"--email: {len(done.sent)} sent{before} (kept in {sent_file(path)}); {len(done.unreached)} could not be "
          "reached" + (":" if done.unreached else ""), file=sys.stderr)
    for line in done.unreached:
        print(f"  {line}", file=sys.stderr)


def usebio_target(args: argparse.Namespace, event: Path) -> Path | None:
    """The --usebio file (None: standard output, or no --usebio), its --club checked; UsageError for what is
    wrong. `event`: the file it is written from (never written over); also tenace championship rank's."""
    if args.usebio is None:
        if args.club is not None or args.club_id is not None:
            raise UsageError("--club and --club-id name the club of a --usebio file: give --usebio FILE too")
        return None
    if not args.club or not args.club.strip() or not args.club.isprintable():
        raise UsageError("--usebio needs --club NAME: a USEBIO file names the club that ran the event")
    if args.club_id is not None and not (args.club_id.isascii() and args.club_id.isdigit()):
        raise UsageError(f"--club-id {args.club_id!r}: a club's number is digits (USEBIO's CLUB_ID_NUMBER)")
    pbn = getattr(args, "pbn", None)  # tenace championship rank has no --pbn
    if args.usebio == "-":
        if pbn == "-":
            raise UsageError("--pbn - and --usebio -: one file can go to standard output, give the other a name")
        return None
    target = Path(args.usebio)
    output_file("--usebio", target, not_same_as=event)
    if pbn is not None and pbn != "-" and target.resolve() == Path(pbn).resolve():
        raise UsageError(f"--usebio {target} is the --pbn file too: give each its own name")
    if target.exists() and not args.force:
        raise UsageError(f"--usebio {target} is there already: give a new file name, or --force to write over it")
    return target


def write_usebio(results: EventResults, extras: Extras, club: str, club_id: str | None, chain: str,
                 target: Path | None) -> None:
    """Every section (or the --section) as one USEBIO 1.2 file, or one line saying what it cannot hold."""
    try:
        tree, written = usebio_tree(results, results.sections, extras, club.strip(), club_id, chain)
    except (UsebioError, UsebioSchemaError) as e:
        raise UsageError(f"--usebio: {e}") from None
    write_usebio_tree(tree, written, target, "tenace report")


def write_usebio_tree(tree: etree._ElementTree, written: Written, target: Path | None, command: str) -> None:
    """A USEBIO tree written to `target` (None: standard output), its notes said on stderr by `command`."""
    data = usebio_bytes(tree)
    for note in dict.fromkeys(written.notes):
        print(f"{command}: --usebio: {note}", file=sys.stderr)
    if target is None:
        sys.stdout.write(data.decode("utf-8"))
        return
    try:
        target.write_bytes(data)
    except OSError as e:
        raise cannot_write("--usebio", target, e) from None
    print(f"wrote {target}: {written.sections} section{'s' if written.sections > 1 else ''}, {written.pairs} pairs, "
          f"{written.lines} traveller lines", file=sys.stderr)


def _match(section: SectionResults, team: int | None) -> MatchResult | None:
    """The match --match names in a teams section of several (a Swiss round); None for one match or a pairs section."""
    if team is None:
        if len(section.matches) > 1:
            shown = ", ".join(f"{m.home} v {m.away}" for m in section.matches)
            raise UsageError(f"section {section.section} holds {len(section.matches)} team matches ({shown}); a PBN "
                             "file holds one: give --match TEAM")
        return None
    if not section.matches:
        raise UsageError(f"--match {team}: section {section.section} is not a team event")
    found = next((m for m in section.matches if team in (m.home, m.away)), None)
    if found is None:
        raise UsageError(f"--match {team}: team {team} plays no match in section {section.section}")
    return found


def csv_folder(folder: Path, force: bool) -> None:
    """UsageError for a --csv folder that already holds CSV files (the sections' files would replace them), unless
    --force; the folder is made once the event's results are read."""
    held = sorted(f.name for f in folder.glob("*.csv")) if folder.is_dir() else []
    if held and not force:
        shown = ", ".join(held[:3]) + (f" and {len(held) - 3} more" if len(held) > 3 else "")
        raise UsageError(f"--csv {folder} holds CSV files already ({shown}): give a new or empty folder, or --force "
                         "to write over them")


def html_folder(folder: Path, force: bool) -> None:
    """UsageError for an --html folder that already holds something, unless --force (nothing is deleted), or that
    is a file; the folder is made once the event's results are read."""
    if folder.is_dir() and not force and any(folder.iterdir()):
        raise UsageError(f"--html {folder} is not empty: give a new or empty folder, or --force to write the "
                         "site into it")
    if folder.exists() and not folder.is_dir():
        raise UsageError(f"--html {folder} is a file, not a folder: give a folder (it is made if new)")


def write_html(results: EventResults, folder: Path, lang: str, chain_head: str = "") -> None:
    output_folder("--html", folder)
    site = Site(results, folder, lang, chain_head)
    try:
        site.index()
        for each in results.sections:
            written = site.section(each)
            print(f"wrote {folder / 'board' / each.section}/ ({written.boards} boards) and "
                  f"{folder / 'pair' / each.section}/ ({written.pairs} pairs): section {each.section}",
                  file=sys.stderr)
        players = site.players()
        if players:
            print(f"wrote {folder / 'player'}/ ({players} players named in tenace names)", file=sys.stderr)
    except OSError as e:
        raise cannot_write("--html", folder, e) from None
    print(f"wrote {folder / 'index.html'}: open it in a browser, or copy the folder to a web host", file=sys.stderr)
