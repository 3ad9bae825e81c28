"""Units of measurement: what a unit is called, and what it measures.

    >>> unit_named("kilograms"), unit_named("公斤")
    (Unit(symbol='kg', dimension='mass'), Unit(symbol='kg', dimension='mass'))
    >>> dimension_of(["travel", "duration"]), dimension_of(["radius"])
    ('time', 'length')

An LLM knows that "kilograms", "kg" and "公斤" are one unit and that a
`duration` is measured in seconds; this model reads it off one table. Two uses:

- a number's unit ("10 km", "5 seconds", "20 degrees Celsius") says what the
  number measures, so it fills the parameter that measures the same thing;
- an enum of unit symbols (`["km", "mi"]`) is filled from the unit's name in
  either language ("miles", "英里").
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

# symbol dimension: its names (English, plurals, Chinese), separated by commas
_TABLE = """
km length: kilometer, kilometers, kilometre, kilometres, kms, 公里, 千米
m length: meter, meters, metre, metres, 米
cm length: centimeter, centimeters, centimetre, centimetres, 厘米
mm length: millimeter, millimeters, millimetre, millimetres, 毫米
mi length: mile, miles, 英里
ft length: foot, feet, 英尺
inch length: inches, 英寸
yd length: yard, yards, 码
nm length: nanometer, nanometers, 纳米
kg mass: kilogram, kilograms, kilo, kilos, 公斤, 千克
g mass: gram, grams, 克
mg mass: milligram, milligrams, 毫克
lb mass: pound, pounds, lbs, 磅
oz mass: ounce, ounces, 盎司
tonne mass: tonnes, ton, tons, 吨
l volume: liter, liters, litre, litres, 升
ml volume: milliliter, milliliters, millilitre, millilitres, 毫升
gal volume: gallon, gallons, 加仑
celsius temperature: °c, degrees celsius, degree celsius, centigrade, 摄氏度, 摄氏
fahrenheit temperature: °f, degrees fahrenheit, degree fahrenheit, 华氏度, 华氏
kelvin temperature: kelvins, 开尔文
s time: second, seconds, sec, secs, 秒, 秒钟
ms time: millisecond, milliseconds, 毫秒
min time: minute, minutes, mins, 分钟, 分
h time: hour, hours, hr, hrs, 小时, 钟头
day time: days, 天, 日
week time: weeks, 周, 星期
month time: months, 个月, 月
year time: years, yr, yrs, 年
m/s speed: meters per second, metres per second, meters/second, meter/second, m/sec
km/h speed: kph, kmh, kilometers per hour, kilometres per hour, 公里每小时
mph speed: miles per hour
m/s^2 acceleration: m/s2, meters/second^2, metres per second squared
% percent: percent, per cent, percentage, 百分之
m^2 area: square meter, square meters, square metre, square metres, sq m, m2, 平方米
km^2 area: square kilometer, square kilometers, square kilometre, square kilometres, sq km, km2, 平方公里
ft^2 area: square foot, square feet, sq ft, sqft, 平方英尺
m^3 volume: cubic meter, cubic meters, cubic metre, cubic metres, m3, 立方米
coulomb charge: coulombs, 库仑
tesla field: teslas, 特斯拉
hz frequency: hertz, 赫兹
ohm resistance: ohms, 欧姆
volt voltage: volts, 伏特
ampere current: amp, amps, amperes, 安培
watt power: watts, 瓦特
joule energy: joules, 焦耳
newton force: newtons, 牛顿
pa pressure: pascal, pascals, 帕
atm pressure: atmosphere, atmospheres, 大气压
mol amount: mole, moles, 摩尔
"""

# words in a parameter's name or description that say what it measures
_MEASURES = """
length: distance, length, height, width, depth, radius, diameter, side, base, altitude, elevation, far
mass: mass, weight, heavy
volume: volume, capacity
temperature: temperature, temp, degrees, hot, cold
time: time, duration, period, seconds, minutes, hours, days, years, months, weeks, age, term, delay
speed: speed, velocity
acceleration: acceleration, accelerate
percent: percent, percentage, rate
area: area, surface
charge: charge, coulomb
field: field, tesla, magnetic
frequency: frequency
pressure: pressure
energy: energy, work, heat
force: force
power: power
"""


@dataclass(frozen=True)
class Unit:
    """A unit by its symbol, and the dimension it measures ('length', 'mass', 'time', …)."""

    symbol: str
    dimension: str


@lru_cache(maxsize=1)
def _units() -> dict[str, Unit]:
    table: dict[str, Unit] = {}
    for line in _TABLE.strip().splitlines():
        head, names = line.split(":", 1)
        symbol, dimension = head.split()
        unit = Unit(symbol, dimension)
        for name in [symbol, *(n.strip() for n in names.split(","))]:
            table.setdefault(name, unit)
    return table


@lru_cache(maxsize=1)
def _measures() -> dict[str, str]:
    table: dict[str, str] = {}
    for line in _MEASURES.strip().splitlines():
        dimension, words = line.split(":", 1)
        for word in words.split(","):
            table.setdefault(word.strip(), dimension)
    return table


def unit_named(name: str) -> Unit | None:
    """The unit a (case-folded) name or symbol stands for, or None."""
    return _units().get(name.casefold().strip())


def dimension_of(words: list[str]) -> str:
    """What a parameter with these (case-folded) words measures: the first dimension one names."""
    measures = _measures()
    for k, word in enumerate(words):
        if k and words[k - 1] == "per":
            continue  # "compounds per year" counts something in a year; it is not a time
        if word in measures:
            return measures[word]
        unit = _units().get(word)
        if unit and len(word) > 2:  # a unit named in full ("in seconds"), not a letter
            return unit.dimension
    return ""


def same_unit(option: str, written: str) -> bool:
    """Whether an enum option and a written word name one unit: 'mi' and 'miles', 'kg' and '公斤'."""
    a, b = unit_named(option), unit_named(written)
    return a is not None and a == b
